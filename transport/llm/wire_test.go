package llm

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestMessageContentParts(t *testing.T) {
	img := ImagePart("image/png", []byte{0x89, 'P', 'N', 'G'})
	for _, tc := range []struct {
		name string
		msg  Message
		want string
	}{
		{"plain text stays a string", Message{Role: RoleUser, Content: "hi"}, `{"role":"user","content":"hi"}`},
		{"text and an image", Message{Role: RoleUser, Content: "what is this?", Parts: []ContentPart{img}},
			`{"role":"user","content":[{"type":"text","text":"what is this?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw=="}}]}`},
		{"an image alone", Message{Role: RoleUser, Parts: []ContentPart{img}},
			`{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw=="}}]}`},
		{"tool calls only: null", Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c", Name: "f", Arguments: "{}"}}},
			`{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}],"content":null}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.msg)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
			var back Message
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tc.msg) {
				t.Errorf("read back %+v, want %+v", back, tc.msg)
			}
		})
	}
}

func TestMessageUnmarshalContent(t *testing.T) {
	var m Message
	if err := json.Unmarshal([]byte(`{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"https://x/y.png"}},{"type":"text","text":"b"}]}`), &m); err != nil {
		t.Fatal(err)
	}
	if m.Content != "a\n\nb" || len(m.Parts) != 1 || m.Parts[0].ImageURL.URL != "https://x/y.png" {
		t.Errorf("got %+v", m)
	}
	for _, bad := range []string{`{"content":12}`, `{"content":{}}`, `{"content":[1]}`} {
		if err := json.Unmarshal([]byte(bad), &m); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// A request without images is byte for byte what it was before content
// parts existed.
func TestRequestWithoutImagesUnchanged(t *testing.T) {
	got, _ := json.Marshal(wireRequest{Model: "m", Messages: []Message{{Role: RoleSystem, Content: "s"}, {Role: RoleUser, Content: "u"}, {Role: RoleTool, ToolCallID: "c", Content: "r"}}})
	want := `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"u"},{"role":"tool","content":"r","tool_call_id":"c"}],"stream":false,"stream_options":{"include_usage":false}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// Whatever a message's JSON holds, reading it never panics, and what was
// read writes and reads back the same.
func FuzzMessageJSON(f *testing.F) {
	for _, s := range []string{
		`{"role":"user","content":"hi"}`,
		`{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AA=="}}]}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
		`{"content":[{"type":"x","text":"t"}]}`, `{"content":[]}`, `{"content":" \"x\""}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m Message
		if json.Unmarshal(data, &m) != nil {
			return
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("writing %+v: %v", m, err)
		}
		var back Message
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("reading back %s: %v", out, err)
		}
		if !reflect.DeepEqual(normal(back), normal(m)) {
			t.Fatalf("read %+v\nback %+v\nfrom %s", m, back, out)
		}
	})
}

// normal makes empty and nil slices alike.
func normal(m Message) Message {
	if len(m.Parts) == 0 {
		m.Parts = nil
	}
	if len(m.ToolCalls) == 0 {
		m.ToolCalls = nil
	}
	return m
}

func TestModelNames(t *testing.T) {
	long := strings.Repeat("m", MaxModelNameLen+1)
	got := ModelNames([]string{"llama3", "", "evil\x1b[2J", "two\nlines", "llama3", long, " padded", "rtl\u202egnp.exe", "qwen2.5:7b"})
	if want := []string{"llama3", "qwen2.5:7b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	many := make([]string, 500)
	for i := range many {
		many[i] = "m" + strings.Repeat("x", i%50) + string(rune('a'+i/50))
	}
	if n := len(ModelNames(many)); n != MaxModels {
		t.Errorf("kept %d names, want %d", n, MaxModels)
	}
}
