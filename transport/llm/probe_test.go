package llm

import (
	"strings"
	"testing"
)

func TestEndpointWhere(t *testing.T) {
	for _, tc := range []struct{ base, want string }{
		{"http://127.0.0.1:11434/v1", "127.0.0.1:11434"},
		{"https://api.example.com/v1", "api.example.com"},
		{"not a url", "not a url"},
	} {
		if got := (Endpoint{BaseURL: tc.base}).Where(); got != tc.want {
			t.Errorf("Where(%q) = %q, want %q", tc.base, got, tc.want)
		}
	}
}

func TestChatModelsLeaveOutEmbeddings(t *testing.T) {
	in := []string{"gpt-4o", "text-embedding-3-small", "nomic-embed-text:latest", "mxbai-embed-large", "bge-m3:latest", "all-minilm:l6-v2",
		"llama3.2:3b", "openai/text-embedding-3-large", "whisper-1", "tts-1-hd", "dall-e-3", "omni-moderation-latest", "qwen2.5-coder:7b",
		"claude-sonnet-4-5", "jina-reranker-v2", "snowflake-arctic-embed2", "gpt-4o-mini-transcribe", "gemma3:27b"}
	got := strings.Join(ChatModels(in), ",")
	if want := "gpt-4o,llama3.2:3b,qwen2.5-coder:7b,claude-sonnet-4-5,gemma3:27b"; got != want {
		t.Errorf("ChatModels: %s\nwant %s", got, want)
	}
}
