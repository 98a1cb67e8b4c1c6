package actors

import (
	"bufio"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"deckhand/actors/conversation"
	"deckhand/approval"
	"deckhand/config"
	"deckhand/store"
	"deckhand/testutil"
)

// TestCallPathFiles follows one approved tool call through the real actors
// (a model over HTTP, a sandboxed stdio MCP server, as in the walk, a log,
// the question answered), from the model's answer, the server already
// connected, to the next request, and
// records the files of the run's goroutines at each point where the call
// waits: the model's answer half streamed, the question open, the tool
// running on its server, the next request sent with the result. Every
// file on those stacks must be named by the README's ten-step walk, and
// the walk's figure must be the number of files it names: a new hop (a
// file, a goroutine, a wrapper) on the call's path fails here until the
// README says so.
//
// The stacks show the files the call passes through, not the functions it
// calls and returns from: TestCallPathCoverage checks those, from two
// coverage profiles of this test, stopped at its first and at its last
// point (DECKHAND_CALLPATH_UNTIL, which also leaves the actors running, so
// that their shutdown is not counted); `make callpath` runs all three.
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
	streamed, second, requested := make(chan struct{}), make(chan struct{}, 1), make(chan struct{})
	var requests atomic.Int32
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		switch requests.Add(1) {
		case 1:
			w.Write([]byte(first[:cut]))
			w.(http.Flusher).Flush()
			<-streamed
			w.Write([]byte(first[cut:]))
		case 2:
			second <- struct{}{}
			<-requested
			w.Write([]byte(testutil.TextChunks("done")))
		default:
			http.Error(w, "one request too many", http.StatusTeapot)
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

	// The server: a stdio child (sandboxed, as the walk's server is), whose
	// tool hold reads a FIFO to its end. Opening the FIFO to write waits
	// until the tool opens it to read: then the call is running; closing
	// it, once the call is probed, lets the tool answer.
	dir := fixedDir(t)
	fifo := filepath.Join(dir, "hold")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	running, release := make(chan struct{}), make(chan struct{})
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		close(running)
		<-release
		f.Close()
	}()
	cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
		// A tool that never ran leaves the writer's open waiting: a reader
		// that opens without waiting ends it.
		if f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	hold := testutil.StdioServer(t, "-hold", fifo)
	hold.Write = append(hold.Write, dir)

	cfg := &config.Config{}
	cfg.Model = config.Model{BaseURL: model.URL + "/v1", Name: "scripted", StreamTimeout: wait}
	cfg.MCP.Servers = map[string]config.Server{"hold": hold}
	cfg.ApplyDefaults()
	db, err := store.Open(t.Context(), filepath.Join(dir, "deckhand.db"))
	if err != nil {
		t.Fatal(err)
	}
	cleanup(func() { db.Close() })
	sys := Start(Options{Config: cfg, Log: db})
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
	opened, asked, finished := make(chan struct{}, 1), make(chan *conversation.ApprovalRequested, 1), make(chan *conversation.RunFinished, 1)
	watcher := sys.Root.Spawn(propsFunc(func(m any) {
		switch m := m.(type) {
		case *conversation.ConversationOpened:
			opened <- struct{}{}
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
	// The message goes after the conversation's catalog, in every run
	// alike: the conversation asked the registry for it as it opened, so
	// the registry's answer to a question asked after that comes once the
	// catalog is in the conversation's mailbox. (Otherwise the message
	// waits for the catalog in some runs and not in others, and the two
	// profiles of make callpath differ in the conversation's code.)
	testutil.Receive(t, opened, wait, "no ConversationOpened")
	if _, err := sys.Catalog(ctx); err != nil {
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
	if err := req.Reply(approval.AllowOnce, ""); err != nil {
		t.Fatal(err)
	}
	testutil.Receive(t, running, wait, "the tool did not run")
	probe("the call", func(s stack) bool { return s.has("deckhand/transport/mcp.(*Conn).CallTool") })
	close(release)
	testutil.Receive(t, second, wait, "no second request")
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

// fixedDir is a temporary folder whose path has the same length in every
// run (t.TempDir's ends in a random number of varying length): the server's
// arguments and roots name it, and code that runs once per character of
// them at the server's start (quoting its command line, flagging its
// tools) would otherwise run more in one of make callpath's two runs than
// in the other, before the call, as if the call had run it.
func fixedDir(t *testing.T) string {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("deckhand-callpath-%010d", os.Getpid()))
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// TestCallPathCoverage checks every file of the module whose code ran in
// TestCallPathFiles from the answer's first delta to the next request (on
// any goroutine: the difference of two coverage profiles, given in
// DECKHAND_CALLPATH_PROFILES, before and after): each with code that ran
// after and never before must be named by the README's walk, or be one
// the walk does not count (notCounted, with why); and each file the walk
// names outside the window must have run. Run it with `make callpath`.
// (The two profiles come from two processes, whose starts do not run
// their code equally often: code that ran before too, only more after, is
// logged, not failed.)
func TestCallPathCoverage(t *testing.T) {
	profiles := strings.Fields(os.Getenv("DECKHAND_CALLPATH_PROFILES"))
	if len(profiles) != 2 {
		t.Skip("DECKHAND_CALLPATH_PROFILES names no two profiles (make callpath)")
	}
	before, after := readProfile(t, profiles[0]), readProfile(t, profiles[1])
	var ran []string
	fresh := map[string]bool{} // files with code that ran after and never before
	for block, n := range after {
		if n > before[block] {
			f, _, _ := strings.Cut(block, ":")
			f = strings.TrimPrefix(f, "deckhand/")
			if !slices.Contains(ran, f) && !strings.HasPrefix(f, "testutil/") {
				ran = append(ran, f)
			}
			fresh[f] = fresh[f] || before[block] == 0
		}
	}
	if len(ran) == 0 {
		t.Fatalf("%s and %s: no code ran between them", profiles[0], profiles[1])
	}
	slices.Sort(ran)
	root := moduleRoot(t)
	walk, _ := readmeWalk(t, filepath.Join(root, "README.md"))
	for _, f := range ran {
		why := uncounted(f)
		if entries, ok := startBound[f]; ok {
			var called, blocks []string
			ran := false
			for _, fn := range entries {
				block := entryBlock(t, root, f, fn)
				n, m := count(before, block), count(after, block)
				ran = ran || m > 0
				blocks = append(blocks, block)
				if n != m {
					called = append(called, fmt.Sprintf("%s %d times before, %d after", fn, n, m))
				}
			}
			switch {
			case !ran:
				t.Fatalf("%s: none of %s ran (no block starts at %s): is this the profiles' source?", f, strings.Join(entries, ", "), strings.Join(blocks, " "))
			case len(called) > 0:
				t.Errorf("the call ran code of %s (%s), which the README's walk does not name", f, strings.Join(called, ", "))
			default:
				t.Logf("ran before the call only: %s (its counts vary from run to run; %s called as often before as after)", f, strings.Join(entries, ", "))
			}
			continue
		}
		switch {
		case slices.Contains(walk, f):
			t.Logf("ran: %s", f)
		case why != "":
			t.Logf("ran, not counted: %s (%s)", f, why)
		case !fresh[f]:
			// How often the start runs some of its code varies from one
			// run to the next (how many times the catalog is rebuilt as
			// the server's states come, and so what the flags' memo
			// holds): only code the start never ran is the call's for
			// certain.
			t.Logf("ran more after, but only code that ran before too: %s (the start's work varies between the two runs)", f)
		default:
			t.Errorf("the call ran code of %s, which the README's walk does not name (nor notCounted)", f)
		}
	}
	for _, f := range walk {
		if !slices.Contains(ran, f) && !strings.HasPrefix(f, "gui/") {
			t.Errorf("the README's walk names %s, but no code of it ran", f)
		}
	}
}

// startBound are files whose code runs when a server starts a number of
// times that varies from one run to the next, so that the two processes
// whose profiles are compared differ there though the call ran none of
// it: the sandbox's plan reads every socket of the host, and sockets come
// and go between the two runs. With each, the functions through which
// alone the rest of the file is reached: the call ran none of its code if
// each of those was called as many times before the call as after.
var startBound = map[string][]string{
	"sandbox/plan_linux.go": {"buildPlan", "socketPaths"},
}

// entryBlock is the start of the coverage block that opens function fn of
// file (relative to root), at its body's brace: "deckhand/file:line.col,".
func entryBlock(t *testing.T, root, file, fn string) string {
	fset := token.NewFileSet()
	src, err := parser.ParseFile(fset, filepath.Join(root, file), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range src.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && d.Recv == nil && d.Name.Name == fn && d.Body != nil {
			p := fset.Position(d.Body.Lbrace)
			return fmt.Sprintf("deckhand/%s:%d.%d,", file, p.Line, p.Column)
		}
	}
	t.Fatalf("%s: no function %s", file, fn)
	return ""
}

// count is how many times the block that starts at start ran.
func count(profile map[string]int, start string) int {
	n := 0
	for block, c := range profile {
		if strings.HasPrefix(block, start) {
			n += c
		}
	}
	return n
}

// notCounted are files whose code a call runs that the README's walk does
// not count, by its own rule; a key ending in / is a folder.
var notCounted = map[string]string{
	"config/config.go":        "the config's values",
	"config/policy.go":        "the config's values",
	"config/ui.go":            "the config's values (the person's system prompt)",
	"keys/keys.go":            "the key's name",
	"redact/set.go":           "the secrets known now, a value swapped whole",
	"tools/catalog.go":        "the catalog's lookup",
	"tools/warnings.go":       "a tool's warnings, as text",
	"approval/approval.go":    "the words of an answer",
	"actors/writer/writer.go": "the log's writer, which watches the call",
	"transport/mcp/frames.go": "the stdio connection's reader goroutine (each line held to the size limit)",
	"store/":                  "the log (IDs; the writer's batches, every 200 ms), which watches the call",
}

// uncounted says why the walk does not count file f ("" when it should).
func uncounted(f string) string {
	if why, ok := notCounted[f]; ok {
		return why
	}
	for k, why := range notCounted {
		if strings.HasSuffix(k, "/") && strings.HasPrefix(f, k) {
			return why
		}
	}
	return ""
}

// readProfile reads a coverage profile's counts, by block.
func readProfile(t *testing.T, path string) map[string]int {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, line := range strings.Split(string(data), "\n")[1:] {
		// deckhand/actors/conversation/run.go:12.3,14.5 2 1
		fields := strings.Fields(line)
		if len(fields) != 3 {
			continue
		}
		n, err := strconv.Atoi(fields[2])
		if err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		out[fields[0]] += n
	}
	return out
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
