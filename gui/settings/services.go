package settings

import (
	"deckhand/config"
	"deckhand/keys"
)

// A service is a model provider the settings know by name: its address,
// the wire format it speaks (model.provider) and the model a new choice
// of it starts with ("": the name in Model is kept, and Check says
// whether the service has it).
type service struct{ name, url, provider, model string }

// services are offered by name; any other URL is "Other", set under
// Advanced, and speaks OpenAI's format. Anthropic keeps its format at any
// address (a proxy, a local server of the Messages API).
var services = []service{
	{"Ollama, on this computer", "http://127.0.0.1:11434/v1", "openai", ""},
	{"LM Studio, on this computer", "http://127.0.0.1:1234/v1", "openai", ""},
	{"llama.cpp, on this computer", "http://127.0.0.1:8080/v1", "openai", ""},
	{"OpenAI", "https://api.openai.com/v1", "openai", "gpt-4o-mini"},
	{anthropicService, config.AnthropicBaseURL, "anthropic", "claude-sonnet-4-5"},
	{"OpenRouter", "https://openrouter.ai/api/v1", "openai", ""},
	{"Groq", "https://api.groq.com/openai/v1", "openai", ""},
	{"Mistral", "https://api.mistral.ai/v1", "openai", ""},
}

const (
	otherService     = "Other (see Advanced)"
	anthropicService = "Anthropic"
)

// serviceNamed is the service called name, if any.
func serviceNamed(name string) (service, bool) {
	for _, s := range services {
		if s.name == name {
			return s, true
		}
	}
	return service{}, false
}

// serviceOf is the service at url speaking provider's format: Anthropic
// at any address when the format is Anthropic's, else the service whose
// address it is, else Other.
func serviceOf(url, provider string) string {
	if provider == "anthropic" {
		return anthropicService
	}
	for _, s := range services {
		if s.provider == "openai" && keys.Account(s.url) == keys.Account(url) {
			return s.name
		}
	}
	return otherService
}

// providerOf is the wire format of the service called name.
func providerOf(name string) string {
	if s, ok := serviceNamed(name); ok {
		return s.provider
	}
	return "openai"
}

// serviceTyped is the service for url typed while current is chosen:
// the service whose address it is, else Anthropic still if chosen (its
// format at another address), else Other.
func serviceTyped(url, current string) string {
	for _, s := range services {
		if keys.Account(s.url) == keys.Account(url) {
			return s.name
		}
	}
	if current == anthropicService {
		return anthropicService
	}
	return otherService
}
