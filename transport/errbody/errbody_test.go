package errbody

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSummary(t *testing.T) {
	tests := []struct {
		body, want string
	}{
		{`{"error":{"message":"Incorrect API key","type":"invalid_request_error"}}`, "Incorrect API key"},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Session not found"}}`, "Session not found"},
		{`{"error":"unauthorized","error_description":"missing token"}`, "unauthorized: missing token"},
		{`{"error":"invalid_token"}`, "invalid_token"},
		{`{"object":"error","message":"context too long"}`, "context too long"},
		{`{"detail":"Service Unavailable"}`, "Service Unavailable"},
		{`{"detail":{"message":"nope"}}`, "nope"},
		{"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>", "502 Bad Gateway"},
		{"<!DOCTYPE html><html><body><pre>Cannot POST /sse</pre></body></html>", "Cannot POST /sse"},
		{"<p>Tom &amp; Jerry</p>", "Tom & Jerry"},
		{"plain\n  text   here", "plain text here"},
		{`{"other": 1}`, `{"other": 1}`},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Summary([]byte(tt.body)); got != tt.want {
			t.Errorf("Summary(%q) = %q, want %q", tt.body, got, tt.want)
		}
	}
}

func FuzzSummary(f *testing.F) {
	f.Add([]byte(`{"error":{"message":"x"}}`))
	f.Add([]byte("<title>é</title>"))
	f.Add([]byte(strings.Repeat("é", 400)))
	f.Fuzz(func(t *testing.T, body []byte) {
		got := Summary(body)
		if len(got) > MaxLen+len("…") {
			t.Fatalf("Summary() is %d bytes", len(got))
		}
		if utf8.ValidString(string(body)) && !utf8.ValidString(got) {
			t.Fatalf("Summary(%q) = %q, not valid UTF-8", body, got)
		}
	})
}
