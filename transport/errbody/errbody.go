// Package errbody turns the body of a refused HTTP request into the short
// message a person should read: the "message" of a JSON error (OpenAI,
// JSON-RPC, OAuth, FastAPI and similar shapes), the title of an HTML error
// page, or the text itself, whitespace collapsed and cut to a few hundred
// characters. Both transports (MCP and model) use it.
//
// Its functions are pure and safe anywhere.
package errbody

import (
	"encoding/json"
	"html"
	"regexp"
	"strings"
)

// MaxLen bounds a summary, in bytes.
const MaxLen = 300

var (
	titleRE = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	tagRE   = regexp.MustCompile(`(?s)<[^>]*>`)
)

// Summary is what body says, for an error message.
func Summary(body []byte) string {
	if m := jsonMessage(body); m != "" {
		return shorten(m)
	}
	text := strings.TrimSpace(string(body))
	if strings.HasPrefix(text, "<") {
		if m := titleRE.FindStringSubmatch(text); m != nil && strings.TrimSpace(m[1]) != "" {
			text = m[1]
		} else {
			text = tagRE.ReplaceAllString(text, " ")
		}
		text = html.UnescapeString(text)
	}
	return shorten(text)
}

func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > MaxLen {
		cut := MaxLen
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// jsonMessage reads {"error":{"message":…}}, {"error":"…",
// "error_description":"…"}, {"message":…} and {"detail":…}.
func jsonMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Desc    string          `json:"error_description"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	var s string
	var obj struct {
		Message string `json:"message"`
	}
	switch {
	case json.Unmarshal(v.Error, &obj) == nil && obj.Message != "":
		return obj.Message
	case json.Unmarshal(v.Error, &s) == nil && s != "":
		if v.Desc != "" {
			return s + ": " + v.Desc
		}
		return s
	case v.Message != "":
		return v.Message
	case json.Unmarshal(v.Detail, &s) == nil && s != "":
		return s
	case json.Unmarshal(v.Detail, &obj) == nil && obj.Message != "":
		return obj.Message
	}
	return ""
}
