package actors

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/testutil"
)

// TestCallPathFiles follows one approved tool call through the real actors
// (a model over HTTP, an in-process MCP server, the question answered) and
// records the files of the run's goroutines at each point where the call
// waits: the model's answer half streamed, the question open, the tool
// running on its server, the next request sent with the result. Every
// file on those stacks must be named by the README's ten-step walk, and
// the walk's figure must be the number of files it names: a new hop (a
// file, a goroutine, a wrapper) on the call's path fails here until the
// README says so.
//
// The stacks show the files the call passes through, not the functions it
// calls and return. To see every file whose code runs from the answer's
// first delta to the next request (on all goroutines), compare two
// coverage profiles, of the test stopped at the first and at the last
// point (DECKHAND_CALLPATH_UNTIL, which also leaves the actors running, so
// that their shutdown is not counted):
//
//	for p in stream request; do DECKHAND_CALLPATH_UNTIL=$p go test -tags no_animations \
//	    -covermode=count -coverpkg=deckhand/... -coverprofile=/tmp/cp.$p -run TestCallPathFiles ./actors/; done
//	awk 'NR==FNR {n[$1]=$3; next} FNR>1 && $3>n[$1] {sub(/:.*/, "", $1); print $1}' /tmp/cp.stream /tmp/cp.request | sort -u
func TestCallPathFiles(t *testing.T) {
	root := moduleRoot(t)
	until := os.Getenv("DECKHAND_CALLPATH_UNTIL") // stream or request: stop there (see above)
	cleanup := func(f func()) {
		if until == "" {
			t.Cleanup(f)
		}
	}
	walk, figure := readmeWalk(t, filepath.Join(root, "README.md"))
	if len(walk) != figure {
		t.Errorf("the README's walk names %d files (%s), but its figure says %d", len(walk), strings.Join(walk, ", "), figure)
	}
	for _, f := range walk {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("the README's walk names %s, which does not exist", f)
		}
	}

	var (
		mu    sync.Mutex
		seen  = map[string][]string{} // file -> the probes that saw it
		probe = func(name string, pick func(stack) bool) {
			t.Helper()
			var got stack
			testutil.Eventually(t, wait, func() bool {
				for _, s := range goroutines() {
					if s.waiting() && s.has("deckhand/actors/conversation.(*run).") && pick(s) {
						got = s
						return true
					}
				}
				return false
			}, "no run goroutine waiting at %s", name)
			mu.Lock()
			defer mu.Unlock()
			for _, f := range got.files(root) {
				if !slices.Contains(seen[f], name) {
					seen[f] = append(seen[f], name)
				}
			}
		}
	)

	// The model: the first answer (a call of hold.hold) is sent in two
	// halves, the second held until the stream is probed; the second
	// request is held until it is probed.
	first := testutil.ToolCallChunks(testutil.ToolCallSpec{ID: "c1", Name: "hold__hold", Arguments: `{"text":"x"}`})
	cut := strings.Index(first, "\n\n") + 2
	streamed, requested := make(chan struct{}), make(chan struct{})
	var requests int
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		n := requests
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		switch n {
		case 1:
			w.Write([]byte(first[:cut]))
			w.(http.Flusher).Flush()
			<-streamed
			w.Write([]byte(first[cut:]))
		default:
			<-requested
			w.Write([]byte(testutil.TextChunks("done")))
		}
	}))
	cleanup(model.Close)
	cleanup(func() {
		for _, ch := range []chan struct{}{streamed, requested} {
			select {
			case <-ch:
			default:
				close(ch)
			}
		}
	})

	// The server: hold waits until the call is probed.
	running, release := make(chan struct{}), make(chan struct{})
	srv := sdk.NewServer(&sdk.Implementation{Name: "hold", Version: "1.0.0"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "hold", Description: "Wait until released"},
		func(ctx context.Context, _ *sdk.CallToolRequest, in testutil.EchoIn) (*sdk.CallToolResult, any, error) {
			close(running)
			select {
			case <-release:
			case <-ctx.Done():
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "held " + in.Text}}}, nil, nil
		})

	cfg := &config.Config{}
	cfg.Model = config.Model{BaseURL: model.URL + "/v1", Name: "scripted", StreamTimeout: wait}
	cfg.ApplyDefaults()
	sys := Start(Options{Config: cfg, InProcess: map[string]*sdk.Server{"hold": srv}})
	cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		sys.Shutdown(ctx)
	})
	ctx, cancel := context.WithTimeout(t.Context(), wait)
	defer cancel()
	if _, err := sys.ServerStatuses(ctx, true); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, wait, func() bool {
		cat, _ := sys.Catalog(t.Context())
		return cat.Len() > 0
	}, "no tools")
	asked, finished := make(chan *conversation.ApprovalRequested, 1), make(chan *conversation.RunFinished, 1)
	watcher := sys.Root.Spawn(propsFunc(func(m any) {
		switch m := m.(type) {
		case *conversation.ApprovalRequested:
			asked <- m
		case *conversation.RunFinished:
			finished <- m
		}
	}))
	conv, _, err := sys.StartConversation(ctx, conversation.ConversationOptions{Watchers: []*actor.PID{watcher}})
	if err != nil {
		t.Fatal(err)
	}

	sys.Root.Send(conv, &conversation.UserMessage{Text: "hold x"})
	probe("the answer streaming", func(s stack) bool { return s.has("deckhand/transport/llm.(*Stream).Next") })
	if until == "stream" {
		return
	}
	close(streamed)
	req := testutil.Receive(t, asked, wait, "no ApprovalRequested")
	probe("the question", func(s stack) bool { return s.has("deckhand/actors/conversation.(*run).ask") })
	sys.Root.Send(conv, &conversation.ApprovalAnswer{ID: req.ID, Answer: approval.AllowOnce})
	testutil.Receive(t, running, wait, "the tool did not run")
	probe("the call", func(s stack) bool { return s.has("deckhand/transport/mcp.(*Conn).CallTool") })
	close(release)
	testutil.Eventually(t, wait, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return requests == 2
	}, "no second request")
	probe("the next request", func(s stack) bool { return s.has("net/http.(*Client).Do") })
	if until == "request" {
		return
	}
	close(requested)
	if fin := testutil.Receive(t, finished, wait, "no RunFinished"); fin.Err != nil || fin.Text != "done" {
		t.Fatalf("RunFinished = %+v", fin)
	}

	files := make([]string, 0, len(seen))
	for f := range seen {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		t.Logf("%s (%s)", f, strings.Join(seen[f], ", "))
		if !slices.Contains(walk, f) {
			t.Errorf("the call's path crosses %s (at %s), which the README's walk does not name", f, strings.Join(seen[f], ", "))
		}
	}
}

// moduleRoot is the repository's root, above this package.
func moduleRoot(t *testing.T) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller")
	}
	return filepath.Dir(filepath.Dir(file))
}

// readmeWalk reads the files the README's walk of one approved call names,
// in order of first mention, and the figure it gives ("crosses N files").
func readmeWalk(t *testing.T, path string) (files []string, figure int) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "**One approved tool call, in ten steps**")
	end := strings.Index(text, "From the model's answer to the result")
	if start < 0 || end < start {
		t.Fatalf("%s: no walk of one approved call (\"**One approved tool call, in ten steps**\" … \"From the model's answer to the result\")", path)
	}
	for _, m := range regexp.MustCompile("`([a-z][a-z0-9_/]*\\.go)`").FindAllStringSubmatch(text[start:end], -1) {
		if !slices.Contains(files, m[1]) {
			files = append(files, m[1])
		}
	}
	m := regexp.MustCompile(`^From the model's answer to the result in the next request the call crosses (\d+) files`).FindStringSubmatch(text[end:])
	if m == nil {
		t.Fatalf("%s: the walk gives no figure (\"… the call crosses N files\")", path)
	}
	figure, _ = strconv.Atoi(m[1])
	return files, figure
}

// stack is one goroutine of a dump: its state and frames.
type stack struct {
	state  string
	frames []frame // innermost first; the last is "created by"
}

type frame struct{ fn, file string }

func (s stack) waiting() bool {
	return !strings.HasPrefix(s.state, "running") && !strings.HasPrefix(s.state, "runnable")
}

func (s stack) has(fn string) bool {
	return slices.ContainsFunc(s.frames, func(f frame) bool { return strings.HasPrefix(f.fn, fn) })
}

// files are the module's own non-test files on the stack (its creator
// included), relative to root.
func (s stack) files(root string) []string {
	var out []string
	for _, f := range s.frames {
		rel, err := filepath.Rel(root, f.file)
		if err != nil || strings.HasPrefix(rel, "..") || strings.HasSuffix(rel, "_test.go") || strings.HasPrefix(rel, "testutil/") {
			continue
		}
		if !slices.Contains(out, rel) {
			out = append(out, rel)
		}
	}
	return out
}

var goroutineHeader = regexp.MustCompile(`^goroutine \d+ \[([^\]]*)\]:$`)

// goroutines parses a dump of every goroutine's stack.
func goroutines() []stack {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []stack
	var cur *stack
	var fn string
	sc := bufio.NewScanner(strings.NewReader(string(buf)))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := goroutineHeader.FindStringSubmatch(line); m != nil {
			out = append(out, stack{state: m[1]})
			cur = &out[len(out)-1]
			continue
		}
		if cur == nil || line == "" {
			continue
		}
		if strings.HasPrefix(line, "\t") {
			file, _, _ := strings.Cut(strings.TrimSpace(line), ":")
			cur.frames = append(cur.frames, frame{fn: fn, file: file})
			continue
		}
		fn = strings.TrimPrefix(line, "created by ") // with its arguments: has matches a prefix
	}
	return out
}
