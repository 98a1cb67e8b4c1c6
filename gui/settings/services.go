package settings

import "deckhand/keys"

// A service is a model provider the settings know by name.
type service struct{ name, url string }

// services are offered by name; any other URL is "Other", set under
// Advanced.
var services = []service{
	{"Ollama, on this computer", "http://127.0.0.1:11434/v1"},
	{"LM Studio, on this computer", "http://127.0.0.1:1234/v1"},
	{"llama.cpp, on this computer", "http://127.0.0.1:8080/v1"},
	{"OpenAI", "https://api.openai.com/v1"},
	{"Anthropic", "https://api.anthropic.com/v1"}, // provider anthropic: config infers it from this URL
	{"OpenRouter", "https://openrouter.ai/api/v1"},
	{"Groq", "https://api.groq.com/openai/v1"},
	{"Mistral", "https://api.mistral.ai/v1"},
}

const otherService = "Other (its address is under Advanced)"

func serviceOf(url string) string {
	for _, s := range services {
		if keys.Account(s.url) == keys.Account(url) {
			return s.name
		}
	}
	return otherService
}
