package settings

import "deckhand/keys"

// A Service is a model provider the settings know by name.
type Service struct{ Name, URL string }

// Services are offered by name; any other URL is "Other", set under
// Advanced.
var Services = []Service{
	{"Ollama, on this computer", "http://127.0.0.1:11434/v1"},
	{"LM Studio, on this computer", "http://127.0.0.1:1234/v1"},
	{"llama.cpp, on this computer", "http://127.0.0.1:8080/v1"},
	{"OpenAI", "https://api.openai.com/v1"},
	{"Anthropic", "https://api.anthropic.com/v1"}, // provider anthropic: config infers it from this URL
	{"OpenRouter", "https://openrouter.ai/api/v1"},
	{"Groq", "https://api.groq.com/openai/v1"},
	{"Mistral", "https://api.mistral.ai/v1"},
}

// OtherService is the choice for any URL not in Services.
const OtherService = "Other (its address is under Advanced)"

// ServiceOf is the name of the service at url, or OtherService.
func ServiceOf(url string) string {
	for _, s := range Services {
		if keys.Account(s.URL) == keys.Account(url) {
			return s.Name
		}
	}
	return OtherService
}
