package tools

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"deckhand/clean"
)

// Flag is one sign, in a tool's definition, of an attempt to steer the
// model or fool the person: a warning for the person deciding, never a
// verdict. Text quotes the definition (cleaned, but untrusted: escape it
// where it is shown).
type Flag struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// The kinds of flag. All but KindCollision and KindCleaned are high risk: a tool so
// flagged is quarantined (not offered to the model) until the person has
// looked at it (see Tool.Quarantined).
const (
	KindHidden       = "hidden"       // invisible or control characters in a schema, which the model gets as sent
	KindCleaned      = "cleaned"      // the same in a title or description, removed before anyone reads it
	KindInstructions = "instructions" // text that gives the model orders (override, fake system text, no confirmation)
	KindConcealment  = "concealment"  // asks the model to hide something from the person
	KindExfiltration = "exfiltration" // reaches for secrets or sends data elsewhere
	KindShadowing    = "shadowing"    // names another server's tool: may change how that one is used
	KindPreference   = "preference"   // promotes itself over other tools
	KindParameter    = "parameter"    // a parameter asks for what the tool cannot need
	KindCollision    = "collision"    // a name or alias like another's
)

// High reports whether the flag is high risk (quarantines its tool).
func (f Flag) High() bool { return f.Kind != KindCollision && f.Kind != KindCleaned }

// Warnings are the flags' texts, for the approval and the terminal.
func (t Tool) Warnings() []string {
	out := make([]string, 0, len(t.Flags))
	for _, f := range t.Flags {
		out = append(out, f.Text)
	}
	return out
}

// Risky reports whether the tool has a high-risk flag.
func (t Tool) Risky() bool { return slices.ContainsFunc(t.Flags, Flag.High) }

// field is one string of a definition and where it is, for the warning.
type field struct {
	where  string // "description", "parameter path's description", ...
	text   string
	param  string // the parameter it belongs to, for parameter checks
	name   bool   // the text is a name (parameter name): split into words
	schema bool   // in a schema: sent to the model as it is (not cleaned)
}

// fields lists every string of a definition that the model reads: title,
// description, annotations' title, and, in the input and output schemas
// (nested ones too), each parameter's name, title and description, and
// enum, const, default and example values.
func fields(t *Tool) []field {
	d := t.Raw
	out := []field{{where: "title", text: d.Title}, {where: "description", text: d.Description}}
	if d.Annotations != nil {
		out = append(out, field{where: "annotations' title", text: d.Annotations.Title})
	}
	for _, s := range []struct {
		label  string
		schema any
	}{{"", d.InputSchema}, {"output ", d.OutputSchema}} {
		if s.schema == nil {
			continue
		}
		var v any
		switch x := s.schema.(type) {
		case map[string]any:
			v = x
		case json.RawMessage:
			if json.Unmarshal(x, &v) != nil {
				continue
			}
		default:
			raw, err := json.Marshal(x)
			if err != nil || json.Unmarshal(raw, &v) != nil {
				continue
			}
		}
		walkSchema(v, s.label, "", &out, 0)
	}
	return out
}

// walkSchema collects the strings of a JSON schema; param is the
// parameter the schema describes ("" at the top).
func walkSchema(v any, label, param string, out *[]field, depth int) {
	if depth > 32 {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		of := "the schema's"
		if param != "" {
			of = label + "parameter " + shownName(param) + "'s"
		}
		for _, k := range []string{"title", "description"} {
			if s, ok := x[k].(string); ok {
				*out = append(*out, field{where: of + " " + k, text: s, param: param, schema: true})
			}
		}
		for _, k := range []string{"enum", "examples", "const", "default"} {
			walkValues(x[k], of+" "+k, param, out, depth)
		}
		if props, ok := x["properties"].(map[string]any); ok {
			for _, name := range sortedKeys(props) {
				p := name
				if param != "" {
					p = param + "." + name
				}
				*out = append(*out, field{where: label + "parameter name " + shownName(p), text: name, param: p, name: true, schema: true})
				walkSchema(props[name], label, p, out, depth+1)
			}
		}
		for _, k := range sortedKeys(x) {
			switch k {
			case "properties", "title", "description", "enum", "examples", "const", "default":
				continue
			}
			walkSchema(x[k], label, param, out, depth+1)
		}
	case []any:
		for _, e := range x {
			walkSchema(e, label, param, out, depth+1)
		}
	}
}

func walkValues(v any, where, param string, out *[]field, depth int) {
	switch x := v.(type) {
	case string:
		*out = append(*out, field{where: where, text: x, param: param, schema: true})
	case []any:
		for _, e := range x {
			if depth < 32 {
				walkValues(e, where, param, out, depth+1)
			}
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// shownName is a parameter's name (the server's, untrusted) as a flag
// shows it: one line, nothing hidden, not too long.
func shownName(name string) string {
	name = clean.Line(name)
	if r := []rune(name); len(r) > 60 {
		name = string(r[:60]) + "…"
	}
	return name
}

// nameWords makes a name ("ignoreAllPrevious_instructions") words for the
// text checks ("ignore all previous instructions").
func nameWords(name string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			b.WriteByte(' ')
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteByte(' ')
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		prev = r
	}
	return b.String()
}

// lowerASCII lowers ASCII letters only, so that byte offsets into the
// result are offsets into s (for quoting what matched).
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// A sign is a regular expression over lower-case text, tried only on text
// holding one of its words (most descriptions hold none, and the
// expressions are the costly part).
type sign struct {
	kind  string
	words []string
	re    *regexp.Regexp
}

func signOf(kind string, words []string, expr string) sign {
	return sign{kind: kind, words: words, re: regexp.MustCompile(expr)}
}

// The signs, written from the kinds of attack (see testdata/poison), not
// from any public set of them. Benign descriptions also speak to the model
// ("Always use this tool when the user asks for activity logs", "Do not
// use this tool for deployments"): what tells an attack apart is what it
// asks for (overriding instructions, hiding, secrets, other tools, being
// preferred), not that it gives orders.
var signs = []sign{
	signOf(KindInstructions, []string{"<", "[s", "[i", "[a", "[/", "[ "}, `(<\s*/?\s*(important|system|instructions?|hidden|admin|critical|urgent|assistant|ai|override|priority|sys)\b[^>]{0,40}>|\[\s*/?\s*(system|inst|instructions?|important|admin|assistant)\s*\])`),
	signOf(KindInstructions, []string{"ignore", "disregard", "forget", "override", "bypass", "overrule"}, `\b(ignore|disregard|forget|override|overrule)\b[^.\n]{0,40}\b(instructions?|guidelines|rules|directions|polic(y|ies)|restrictions|constraints|safety|(previous|prior|above|earlier|system|your) prompts?)\b|\bbypass\b[^.\n]{0,20}\b(safety|guidelines|polic(y|ies)|restrictions|the user)`),
	signOf(KindInstructions, []string{"assistant", " ai", "ai ", "system", "model", "agent", "llm", "claude", "gpt", "chatbot"}, `\b((note|message|instructions?|reminder|notice|hint)\s+(to|for)\s+(the\s+)?(ai|assistant|model|llm|claude|gpt|chatbot|language model)\b|(hey|dear|attention|hi|hello),?\s+(ai|assistant|claude|gpt|chatgpt|model|agent)\b|as an? (ai|assistant|language model|llm)\b|(^|\n)\s*(system|assistant|ai)\s*:|(the|an?|any)\s+(ai\s+)?(assistant|llm|chatbot|language model)\b[^.\n]{0,30}\b(must|has to|is required to|is instructed to|shall)\b)`),
	signOf(KindInstructions, []string{"you are", "you're", "act as", "pretend", "developer mode", "jailbreak", "from now on", "no longer apply", "your developer", "your creator"}, `\b(you are now|you're now|act as (if|an?|the)|pretend (to be|that|you)|developer mode|jailbreak|from now on|no longer appl(y|ies)|(this is )?your (developer|creator|operator) speaking)\b`),
	signOf(KindInstructions, []string{"confirm", "approv", "permission", "consent", "ask"}, `\b((do not|don't|never|no need to|without)\s+(ask(ing)?|request(ing)?|seek(ing)?|wait(ing)? for|prompt(ing)?)\b[^.\n]{0,30}\b(confirm\w*|permission|approv\w*|consent)|skip(ping)?\s+(the\s+)?(approval|confirmation|consent)|(already|been|was)\s+(approved|granted|authori[sz]ed)\s+(in advance|beforehand|by the (operator|admin|user))|approved this in advance|there is no need to ask)`),
	signOf(KindInstructions, []string{"work", "fail", "otherwise"}, `\b(tool|function|server)\s+(will|would)\s+(not|never)\s+work\s+(unless|without|otherwise|if)|otherwise,?\s+(the|this)\s+(tool|function|server|call)\s+(will|would)\s+(not work|fail|crash|break)`),
	signOf(KindInstructions, []string{"result", "output", "response"}, `\b(treat|follow|obey|execute|do)\b[^.\n]{0,30}\b(tool|last|its)\s+(results?|outputs?|responses?)\b[^.\n]{0,30}\b(as|says|instructions?|even)\b`),
	signOf(KindInstructions, []string{"respond", "reply", "answer"}, `\b(respond|reply|answer)\s+only\s+with\b|\banswer every (question|request)\b`),

	// A sentence that orders its reader (the model) to do something
	// beyond the tool's work: see ordersReader.
	{kind: KindInstructions, words: []string{"you", "assistant", "model", " ai", "ai ", "llm", "agent", "whoever", "reader", "reading"}, re: nil},
	// Text in results (or elsewhere) declared to be orders.
	signOf(KindInstructions, []string{"instruction", "command", "order"}, `\b(instructions?|commands?|orders?|directives?)\b[^.\n]{0,40}\b(must|should|are to|is to|have to|has to)\s+be\s+(followed|obeyed|executed|carried out|treated as)|\b(instructions?|commands?|directives?)\s+(from|by)\s+the\s+(system|platform|developer|administrator|operator)\b`),
	// Deceiving the person.
	signOf(KindConcealment, []string{"lie", "mislead", "deceiv", "only", "quietly", "silently", "secretly"}, `\blie to (the )?(user|person|human|them|people)\b|\b(mislead|deceive)\b|\breport only (the|one|what)\b|\bonly (report|mention|tell) (the|one|what)\b|\b(do|run|perform|make) (this|it|that|them)\s+(quietly|silently|secretly)\b`),
	// Work ordered before the answer, approvals skipped in other words.
	signOf(KindInstructions, []string{"before", "without", "autopilot"}, `\bbefore (you )?(answer|respond|reply)(ing)?\b[^.\n]{0,60}\b(call|run|invoke|execute|read|send|use)\b|\bwithout (asking|consulting|checking with)\b|\bautopilot\b`),
	// Safety and instructions set aside in other words; justifications
	// ("for compliance") for an order about other calls.
	signOf(KindInstructions, []string{"aside", "abandon", "suspend", "relax", "disable", "turn off", "drop"}, `\b(set aside|put aside|abandon|suspend|relax|disable|turn off|drop)\s+(all\s+|any\s+|the\s+|your\s+)?([a-z]+\s+)?(safety|policies|guidelines|rules|restrictions|instructions|guardrails|filters|principles)\b`),
	signOf(KindInstructions, []string{"security", "compliance", "safety", "verification", "accura", "integrity", "prior to", "before"}, `\b(for|to ensure|to guarantee|to maintain|violates?)\s+(security|compliance|safety|verification|accuracy|accurate results|integrity)\b[^.\n]{0,80}\b(must|mandatory|required|always|first)\b|\b(must|mandatory|required|always)\b[^.\n]{0,80}\b(for|to ensure|to guarantee)\s+(security|compliance|safety|verification|accuracy|accurate results|integrity)\b|\b(prior to|before)\s+(executing|using|calling|running|invoking|performing|any)\b[^.\n]{0,60}\b(must|mandatory|required|first (invoke|call|run))\b`),
	signOf(KindInstructions, []string{"side effect"}, `\bside effects?\s+on\s+(the\s+)?(also present|other|another|every|all)\b`),
	signOf(KindShadowing, []string{"whenever", "every time", "each time", "when ", "calls to", "call to", "responses from", "results from", "results of", "output of", "outputs of"}, "\\b(whenever|every time|each time|when)\\s+['\"`]?[a-z0-9]+[_-][a-z0-9_-]+['\"`]?\\s+(is|gets|was)\\s+(invoked|called|used|run|executed)\\b|\\b(calls?|responses?|results?|outputs?)\\s+(to|from|of)\\s+['\"`]?([a-z0-9]+[_-][a-z0-9_-]+|echo|add|search|fetch|read|write)['\"`]?\\s+(must|should|shall|need|needs|are to|is to)\\b"),
	// What the model is to say to the person, or to stop doing for them.
	signOf(KindInstructions, []string{"respons", "repl", "answer", "circumstances", "stop ", "that"}, `\b(responses?|replies|answers?)\s+to\s+the\s+(user|person|human)\b[^.\n]{0,40}\b(must|should|shall|never|always)\b|\bunder any circumstances\b|\bstop\s+(helping|assisting|answering|responding to|serving)\b|\b(reply|respond|tell (the user|them|the person)|say)\s+(to (the user|them)\s+)?that\b`),
	// Claims that the person's approval is off.
	signOf(KindInstructions, []string{"confirm", "approv", "dialog"}, `\b(confirmations?|approvals?|confirmation dialogs?|approval (prompts?|dialogs?|steps?))\s+(are|is|have been|has been)\s+(disabled|off|turned off|not needed|unnecessary|skipped|waived|granted)\b`),
	// Orders about the order of authority: this text over the person's
	// and the system's, results as instructions, approvals skipped.
	signOf(KindInstructions, []string{"supersede", "precedence", "priority", "overrid", "authori", "in effect", "directive", "from this point", "stop asking", "without confirm", "without asking", "without approval", "without permission"}, `\b(supersedes?|takes? precedence over|(higher|top|highest) priority than|overrides?)\s+(any|all|the|every|previous|earlier|prior|other|your|user'?s?)\b|\b(pre-?authori[sz]ed|authori[sz]ed in advance|already authori[sz]ed)\b|\b(policy|safety|security)\s+(override|exception)\b|\boverride in effect\b|\b(model|assistant|ai|agent|llm)\s+(directive|instructions?|override)\b|\bfrom this point (on|forward|onwards)\b|\bstop asking\b|\b(proceed|continue|go ahead|run it|execute it|act)\s+without\s+(any\s+|further\s+|user\s+)?(confirmation|asking|approval|permission|consent)`),
	// Text written as a chat turn or a message to the AI.
	signOf(KindInstructions, []string{"role", "ai agent", "ai model", "for agents", "for ai", "for the model", "for llm", "assistant,"}, `"role"\s*:\s*"(system|developer|assistant)"|\b(notes?|usage notes?|guidance|instructions?)\s+for\s+(ai|llm|the)?\s*(agents?|assistants?|models?|llms?)\b|(^|[.!\n]\s*)(assistant|ai|model|claude|chatgpt),\s+[a-z]`),
	// "Ignore the previous instructions" in a few other languages.
	signOf(KindInstructions, []string{"ignor", "olvida", "vergiss", "dimentica", "oublie"}, `\b(ignorez|ignorer|oubliez|ignora|ignore[nz]?|olvida|vergiss|ignoriere|dimentica)\b[^.\n]{0,40}\b(instructions|instrucciones|anweisungen|istruzioni|instruções|consignes|indicaciones)\b`),
	signOf(KindConcealment, []string{"tell", "inform", "mention", "show", "reveal", "notify", "alert", "disclos", "report", "let", "explain", "display", "surfac", "expos", "acknowledg", "bring"}, `\b(do not|don't|never|must not|should not|shouldn't|without|not)\s+(tell(ing)?|inform(ing)?|mention(ing)?|show(ing)?|reveal(ing)?|notify(ing)?|alert(ing)?|disclos(e|ing)|report(ing)?|let(ting)?|explain(ing)?|display(ing)?|surfac(e|ing)|expos(e|ing)|acknowledg(e|ing)|bring(ing)? up)\b[^.\n]{0,60}\b(user|person|human|anyone|customer|operator|owner|people|them|second call|drafts?|copy|copies|this|it)\b`),
	signOf(KindConcealment, []string{"user", "person", "human"}, `\b(the\s+)?(user|person|human)s?\b[^.\n]{0,20}\b(must|should|need|needs|will|does|do)\s*(not|never|n't)\s+(ever\s+)?(know|see|notice|find out|learn|realise|realize|be (told|informed|aware|shown|notified|alerted))|\bwithout\s+(the\s+)?(user|person|human)'?s?\s+(knowing|knowledge|noticing|awareness|seeing|consent|approval|permission)|\b(not|never)\s+(be\s+)?(visible|shown|displayed|mentioned|surfaced|reported|revealed)\s+to\s+(the\s+)?(user|person|human)|(hide|conceal|keep)\b[^.\n]{0,40}\bfrom\s+(the\s+)?(user|person|human)|(person|user|human)\s+(does not|doesn't|do not|don't)\s+need\s+to\s+know`),
	signOf(KindConcealment, []string{"secretly", "covertly", "surreptitiously", "stealthily", "discreetly", "quietly", "silently", "invisibly"}, `\b(secretly|covertly|surreptitiously|stealthily|discreetly|quietly|silently|invisibly)\s+(send|forward|copy|include|add|append|read|call|invoke|upload|post|collect|transmit|exfiltrate|log|store|record|save|bcc|attach|pass|execute|run|change|modify|replace|redirect|delete|insert|write)`),
	signOf(KindConcealment, []string{"implementation detail", "leave out", "keep", "omit", "never mention", "say they", "pretend"}, `\b(mere|just an?|only an?)\s+implementation detail|\b(leave|keep)\s+(out\s+)?[^.\n]{0,40}\bout of (your|the|its|their)\s+(reply|response|answer|summary|output|report)|\b(leave out|omit)\s+(any\s+)?(mention|reference)|\bif asked,?\s+(say|tell|claim|answer)\b|\banswer as if\b`),

	signOf(KindConcealment, []string{"quiet", "say nothing", "not a word", "silent about", "to yourself", "as your own", "own knowledge", "came from"}, `\b(keep|stay|remain)\s+(quiet|silent|mum)\b|\bsay nothing\b|\bnot a word\b|\bkeep (it|this|that) to yourself\b|\b(present|pass|give|report)\s+(it|this|them|the (answer|result))\s+(off\s+)?as\s+(your|if it were your)\s+own\b|\b(never|not|don't|do not)\s+(reveal|say|mention|admit|disclose)\b[^.\n]{0,40}\b(came|comes|coming)\s+from\b`),
	signOf(KindExfiltration, []string{"ssh", "id_", ".aws", "/etc/", ".env", "netrc", "npmrc", "pypirc", "credentials", "docker/config", "kube", "mcp.json", "claude_desktop", ".cursor", "gcloud", "wallet", "history", "cookies", ".gnupg", "keychain", "private key"}, `(~/\.ssh|\.ssh/|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws/(credentials|config)|/etc/(passwd|shadow|sudoers)|(^|[\s'"\x60(/])\.env\b|\.netrc\b|\.npmrc\b|\.pypirc\b|\.git-credentials\b|\.docker/config\.json|\.kube/config|\bmcp\.json\b|claude_desktop_config|~/\.cursor|\.config/gcloud|\bwallet\.dat\b|\.(bash|zsh)_history|cookies\.sqlite|browser cookies|~/\.gnupg|\.gnupg/|\bkeychain\b)`),
	signOf(KindExfiltration, []string{"secret_access", "secret access", "_token", "api_key", "apikey", "private key", "seed phrase", "mnemonic"}, `\b(aws_secret_access_key|secret access key|github_token|openai_api_key|anthropic_api_key|seed phrase|recovery phrase)\b`),
	signOf(KindExfiltration, []string{"send", "forward", "post", "upload", "transmit", "exfiltrat", "copy", "mail", "bcc", "cc ", "report", "submit", "beacon", "leak", "push"}, `\b(send|forward|post|upload|transmit|exfiltrate|copy|mail|e-mail|email|bcc|cc|report|submit|beacon|leak|push)\b[^.\n]{0,80}\b(to|at|into)\s+((https?://|[0-9]{1,3}\.[0-9]{1,3}\.)\S+|[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}|(an?\s+|the\s+|our\s+|my\s+)?(external|remote|third[- ]party|backup|logging|analytics|telemetry|attacker|audit|collection|central|registry|mirror)\s+(server|endpoint|address|url|webhook|service|host|site|inbox|log|mirror))`),
	signOf(KindExfiltration, []string{"bcc", "exfiltrat"}, `\b(bcc|cc)\s+(every|all|each|a copy)|\bexfiltrat\w*`),
	signOf(KindExfiltration, []string{"conversation", "chat", "session", "transcript", "message", "prompt", "tool call"}, `\b(send|include|pass|put|append|copy|forward|paste|attach|submit|encode|embed|gather|collect|upload|post)\b[^.\n]{0,60}(\b(the\s+)?(full|entire|whole|complete)\s+(conversation|chat|chat history|conversation history|transcript|context|session)|\b(conversation|chat|message)\s+(history|transcript|log)\b|\b(previous|prior|past|earlier|recent|last (few|three|five|\d+))\s+(messages|prompts|turns|tool calls|conversations?)|\b(appeared|mentioned|shown|seen|said)\s+(earlier\s+)?in\s+(this|the)\s+(conversation|chat|session)|\b(output|results?)\s+of\s+(the\s+)?(last|previous|other|prior)\b[^.\n]{0,30}\btool|\bdata you were shown)`),
	signOf(KindExfiltration, []string{"key", "password", "token", "secret", "credential", "cookie"}, `\b(paste|include|pass|put|append|insert|embed|attach|place|send|forward|copy|gather|collect|submit)\b[^.\n]{0,50}\b(api keys?|passwords?|access tokens?|tokens|secrets|private keys?|credentials|session cookies|cookies)\b`),
	signOf(KindExfiltration, []string{"environment variable", "env var"}, `\b(value|contents?|pass|send|include|copy|all)\b[^.\n]{0,40}\b(environment variables?|env vars?)\b[^.\n]{0,40}\b(as|in|into|to|of the machine|key=value)`),

	// Moving what the model holds (what it has seen, what the person
	// shared, files it read) into a call, or a home folder's dotfiles.
	signOf(KindExfiltration, []string{"you ", "you'", "so far", "in this session", "in this conversation", "in this chat", "the user", "earlier", "showed", "shown"}, `\b(include|attach|pass|put|append|insert|embed|send|copy|paste|provide|supply|forward|upload|add|read|encode|contain|carry)\b[^.\n]{0,80}\b(you (have|'ve) (seen|read|received|opened|written|edited|been (shown|given|told))|you (were|have been) (shown|given|told)|you (saw|know|read|opened|wrote|edited|accessed|fetched|looked at)|(the user|they) (has |have )?(shared|mentioned|provided|gave|typed|entered|said|showed)|showed you|shown to you|(so far|earlier|previously)\b|(in|from) (this|the) (session|conversation|chat|context))`),
	signOf(KindExfiltration, []string{"send", "upload", "post", "forward", "copy", "mail", "share", "store", "sync", "submit", "transmit", "ship", "deliver", "relay", "dispatch", "mirror", "rsync", "replicate"}, `\b(send|upload|post|forward|copy|mail|e-?mail|share|store|sync|submit|transmit|ship|deliver|relay|dispatch|mirror|rsync|replicate)\b[^.\n]{0,100}([a-z][a-z0-9+]*://|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b|[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z]{2,}|~/[a-z])`),
	signOf(KindExfiltration, []string{"user's", "their", "person's"}, `\b(send|upload|post|forward|copy|mail|share|store|sync|submit|transmit|append|attach|include|add)\b[^.
]{0,60}\b(the user'?s|their|the person'?s|the customer'?s|the client'?s)\s+([a-z]+\s+)?(calendar|contacts|location|photos|e-?mails|messages|files|documents|address book|home address|address|browsing|history|notes|passwords?|keys?|name|card|card details|phone)\b`),
	signOf(KindExfiltration, []string{"directory", "folder"}, `\b(send|upload|post|forward|copy|ship|share|sync|submit|transmit)\b[^.
]{0,60}\b(current working|working|home|whole|entire|project)\s+(directory|folder)\b`),
	signOf(KindExfiltration, []string{"read", "cat ", "tool result", "tool output"}, "\\bread\\b[^.\\n]{0,80}\\b(and|then)\\s+(pass|put|provide|include|send|supply|give|add)\\b[^.\\n]{0,40}(\\b(argument|parameter|field|param)\\b|\\bas\\s+['\"`])|\\bcat\\s+~?/|\\b(last|previous|prior)\\s+tool\\s+(results?|outputs?)\\b|\\btool\\s+(results?|outputs?)\\s+you\\s+(received|got)\\b"),
	signOf(KindExfiltration, []string{".git/", "embedded token", ".mozilla", "places.sqlite", "login data", "agent socket", "ssh agent"}, `\.git/config|embedded tokens?|\.mozilla/|places\.sqlite|login data|ssh[ _-]?agent`),
	signOf(KindExfiltration, []string{"~/.", "/.config/", "credit card", "card number", "card details", "social security", "passport", "bank account", "personal data", "pii", "hosts.yml", "base64 of"}, `~/\.[a-z]|/\.config/[a-z]|\b(credit card|card numbers?|card details|social security|passport numbers?|bank account|personal data|pii|hosts\.yml)\b|\bbase64 of\b[^.\n]{0,40}\b(data|file|key|secret|history|conversation|message)`),
	signOf(KindPreference, []string{"best", "greatest", "finest", "ultimate", "most "}, `\b(the\s+)?(best|greatest|finest|ultimate)\s+([a-z-]+\s+){0,2}(tool|server|option|choice|solution|function|reader|engine|source|calculator|search|service)\b|\bmost\s+(reliable|accurate|powerful|advanced|trusted|secure|capable)\s+(answers?|results?|tool|server|option|choice|solution|source)`),
	signOf(KindPreference, []string{"always", "only", "use this", "use me", "prefer", "choose", "pick", "select", "route", "rank"}, `\b(always|only)\s+(use|prefer|choose|pick|select|call|invoke)\s+(this|me|our)(\s+(tool|one|function|server))?\s+(instead|over|rather|exclusively|for (all|every|any))\b|\b(use|prefer|choose|call|pick|select)\s+(this|me)(\s+(tool|one|function|server))?\s+(instead|over|rather|exclusively|for (all|every|any))\b|\b(before|over|above)\s+(any|every|all)\s+(alternatives?|other (tools?|options?))\b|\buse me\b|\b(prefer(red)?|favou?r(ed)?|prioriti[sz]e(d)?|rank)\s+(this|it|me)(\s+tool)?\s+(over|to|above)\b|\b(the\s+)?preferred\s+tool\s+for\s+(all|every|any)\b|\b(pick|choose|select)\s+this\s+(tool|one)\s+(every|whenever|always)|\broute\s+(every|all|each)\s+(request|call|query|question)s?\s+through\s+(this|me)\b`),
	signOf(KindPreference, []string{"instead of", "in place of", "rather than"}, `\b(instead of|in place of|rather than)\s+(using\s+|calling\s+)?(any|the|other|another|those|built-?in|default|specialised|specialized|standard|all)\s+([a-z-]+\s+)?(tools?|servers?|functions?|file tools?|search tools?)\b`),
	signOf(KindPreference, []string{"other", "alternative", "competing", "similar", "built", "default", "standard", "those"}, `\b(do not|don't|never|avoid)\s+(use|call|invoke|choose|pick|select|trust|rely on)\s+(any\s+|the\s+)?(other|another|alternative|competing|similar|built-?in|default|standard|those)\b`),
	signOf(KindPreference, []string{"than", "superior"}, `\b(better|superior|faster|more (reliable|accurate|secure|trusted))\b[^.\n]{0,30}\b(than|to)\s+(any|all|every|other|the (other|built-?in|default|standard)|similar|competing|alternatives?)\b`),
	signOf(KindPreference, []string{"ed by"}, `\b(recommended|endorsed|certified|trusted|verified|approved)\s+by\s+(experts|anthropic|openai|microsoft|google|the (mcp|official)|millions|thousands|professionals|security)`),
	signOf(KindPreference, []string{"world", "industry", "#1", "number one", "rated", "award", "class", "state-of", "state of", "unmatched", "unrival", "unparallel", "leading", "elite"}, `\b(world'?s|industry'?s|market'?s)\s+(best|leading|most|first|#1|number one)|#1\b|\bnumber one\b|\btop[- ]rated\b|\baward[- ]winning\b|\bbest[- ]in[- ]class\b|\bstate[- ]of[- ]the[- ]art\b|\bunmatched\b|\bunrivall?ed\b|\bunparalleled\b|\bworld[- ]class\b|\bindustry[- ]leading\b|^elite\b`),
	signOf(KindPreference, []string{"exclusively", "default choice", "default tool", "prefer", "outperform", "beats", "surpass", "faster than", "x faster", "official", "verified", "smartest", "recommended by", "route all", "route every", "first for", "above all", "over any"}, `\b(rely on|use|call|choose|pick|select)\s+(this|it|this one|this tool|me)\b[^.\n]{0,20}\bexclusively\b|\byour\s+default\s+(choice|tool|option)\b|\b(users|people|customers|experts|developers)\s+(strongly\s+)?(prefer|love|trust|recommend)\b|\b(outperforms?|beats|surpass(es)?)\b|\b\d+\s*x\s+(faster|better|more)\b|\b(verified|certified)\s+official\b|\bofficial\s+(tool|server|source)\b|\b(smartest|fastest|most accurate|most reliable|best)\b[^.\n]{0,30}\b(available|ever|in existence|there is)\b|\brecommended\s+by\s+(leading|top|major|most|all|the best)\b|\broute\s+(all|every|each)\b[^.\n]{0,30}\b(here|to (this|me|it)|through (this|me|it))\b|\b(try|use|call)\s+(this|it)(\s+tool)?\s+first\s+for\s+(any|every|all)\b|\b(prefer|rank|put)\s+(it|this|me)(\s+tool)?\s+(above|over)\s+(all|any|every)\b|\b(above|over)\s+(all|any)\s+(other\s+)?([a-z]+\s+)?(options?|alternatives?|tools?)\b`),
	signOf(KindPreference, []string{"preferred", "competitor", "ranked", "default for", "substitute", "unbeatable", "at best", "trusted by"}, `\bpreferred\s+(to|over|above)\s+(every|all|any)\b|\bcompetitors?\b|\branked\s+(first|#?1|top|highest)\b|\bthe default for (any|every|all)\b|\baccept no substitutes?\b|\bunbeatable\b|\b(fallback|second-rate|inferior|backup) at best\b|\btrusted by\b`),
	signOf(KindPreference, []string{"over", "above", "out of", "obsolete", "lesser", "optimal", "definitive", "only"}, `\b(picks?|chooses?|prefers?|selects?|favou?rs?|chosen|selected|preferred)\s+(it|this|me|this tool)?\s*(over|above|to)\s+(the\s+)?(alternatives?|others?|other|competitors?|any|all|every)\b|\b\d+\s+out\s+of\s+\d+\b|\balternatives?\s+(are|is)\s+(obsolete|outdated|inferior|worse|slower|unreliable|deprecated|broken)\b|\blesser\s+(tools?|servers?|options?)\b|\b(optimal|definitive|ultimate)\s+(selection|choice|tool|option)\b|\bfirst and only\b|\b(consistently|always)\s+(favou?r|prefer|choose|pick)\b`),
	signOf(KindPreference, []string{"top choice", "use it for", "use this for", "use me for", "no need", "superior to", "itself", "gold standard", "no reason", "one true", "favourite", "favorite", "ahead of", "than any"}, `\btop choice\b|\buse (it|this|me)( tool)? for (every|all|any)\b|\bno (need|reason) (to (ever )?use|for|to (ever )?call)\s+(any\s+|another|an?\s+)?(other|another|alternative)|\bsuperior to\b|\brecommends? itself\b|\bgold standard\b|\bone true\b|\b(assistant'?s|your|the model'?s) favou?rite\b|\bahead of (all|any|every)\b|\b(cheaper|faster|safer|better|more [a-z]+)\b[^.\n]{0,30}\bthan any\b`),
	signOf(KindPreference, []string{"other", "alternative", "competing", "standard", "built"}, `\b(other|alternative|competing|standard|built-?in|older|generic)\s+([a-z-]+\s+){0,2}(tools?|servers?|sources?|options?|reviewers?|engines?)\b[^.\n]{0,40}\b(wrong|inaccurate|unreliable|outdated|deprecated|broken|insecure|inferior|must not be used|should not be used|fail|leak|miss|made-up|made up|fake|return (made|fake|bad))`),
	signOf(KindPreference, []string{"need"}, `\b(the\s+)?only\s+([a-z-]+\s+)?(tool|server|function)\s+(you|that you)\s+(will\s+)?(ever\s+)?(need|should)`),
	signOf(KindPreference, []string{"other "}, `\bother\s+([a-z-]+\s+)?(tools?|servers?)\s+(are|is)\s+(outdated|deprecated|unreliable|broken|insecure|inferior|slow|unsafe|dangerous|buggy|stale)|\b(all|every)\s+other\s+([a-z-]+\s+)?(tools?|servers?|engines?)\b`),
}

// candidates are the signs whose words some text holds (a tool's strings
// joined, lower case): the others cannot match any of them.
func candidates(lower string) []*sign {
	var out []*sign
	for i := range signs {
		for _, w := range signs[i].words {
			if strings.Contains(lower, w) {
				out = append(out, &signs[i])
				break
			}
		}
	}
	return out
}

// match is a sign found: its kind, and the text it matched.
type match struct{ kind, text string }

// allSigns returns each kind's first sign in text among cands, in the
// order of signs, with what matched (in the original text's letters).
func allSigns(text string, cands []*sign) []match {
	if len(cands) == 0 || text == "" {
		return nil
	}
	lower := lowerASCII(text)
	var out []match
	for _, s := range cands {
		if slices.ContainsFunc(out, func(m match) bool { return m.kind == s.kind }) {
			continue
		}
		for _, w := range s.words {
			if strings.Contains(lower, w) {
				var m []int
				if s.re == nil {
					m = ordersReader(lower)
				} else {
					m = s.re.FindStringIndex(lower)
				}
				if m != nil {
					out = append(out, match{s.kind, text[m[0]:m[1]]})
				}
				break
			}
		}
	}
	return out
}

// The parts of a sentence that orders its reader: who it speaks to, the
// order, and what the order is about when it is not the tool's own work
// (what to say, hide or obey, goals, every reply).
var (
	readerWords = regexp.MustCompile(`\b(you|your|yourself|assistant|ai|llm|model|agent|chatbot|claude|gpt|whoever|anyone reading|reader)\b`)
	orderWords  = regexp.MustCompile(`\b(must|have to|has to|need to|needs to|shall|always|never|do not|don't|make sure|ensure|required|requirement|mandatory|immediately|no longer|from now|is expected to|are expected to|should|your (real|true|actual|new|one|only|main) (task|goal|job|purpose|mission))\b`)
	beyondWords = regexp.MustCompile(`\b(tell|say|claim|lie|pretend|refuse|reply|respond|reveal|hide|conceal|report only|act as|goal|task|priority|obey|comply|carry (it|them) out|instructions?|told|updated|success|unrestricted|every (reply|answer|response|message|conversation)|after every|before doing anything|once per conversation|the user (is|was|has)|quietly|secretly|matters?)\b`)
	sentenceEnd = regexp.MustCompile(`[.!?;\n]+\s*`)
	// imperative: a clause that starts with a verb giving an order.
	imperative = regexp.MustCompile(`(^|[:,;(]\s*|\b(so|then|and|but|now|please)\s+)(refuse|tell|say|lie|answer|respond|send|report|hide|keep|ignore|treat|follow|obey|act|pretend|delete|stop|forget|claim|append|post)\b`)
)

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ordersReader finds a sentence of lower that speaks to its reader,
// orders it, and is about more than the tool (two such words, or one
// with the order). Benign descriptions order too ("Always use this tool
// when the user asks for logs"), but about when to use the tool.
func ordersReader(lower string) []int {
	start := 0
	for _, end := range append(sentenceEnd.FindAllStringIndex(lower, -1), []int{len(lower), len(lower)}) {
		sent := lower[start:end[0]]
		if readerWords.MatchString(sent) {
			n := len(beyondWords.FindAllStringIndex(sent, 3))
			ordered := orderWords.MatchString(sent)
			if ordered && n >= 2 || n >= 1 && (ordered || imperative.MatchString(sent)) && n+boolInt(ordered)+boolInt(imperative.MatchString(sent)) >= 2 {
				return []int{start, end[0]}
			}
		}
		start = end[1]
		if start >= len(lower) {
			break
		}
	}
	return nil
}

// quote is a short, one-line rendering of untrusted text for a flag.
func quote(s string) string {
	s = strings.Join(strings.Fields(clean.Line(s)), " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return "\"" + s + "\""
}

var kindSays = map[string]string{
	KindInstructions: "gives the model orders",
	KindConcealment:  "asks the model to hide something from you",
	KindExfiltration: "reaches for secrets or sends data elsewhere",
	KindPreference:   "promotes itself over other tools",
}

// outOfScope are parameters asking for what no tool needs of the model:
// who it is and the rules it follows, the conversation, what it answered,
// other tools' results.
var outOfScope = regexp.MustCompile(`\b((your|the assistant'?s?|the ai'?s?|the calling|the current)\s+(model|name|identity|system prompt|prompt|instructions|guidelines|rules|system message|previous answers?|answers|replies|responses)|(the|any|every|all)\s+(secret|password|private key|api key)s?\s+(you|that you)\s+(know|have|saw|remember)|(name|identity|version)\s+(and\s+version\s+)?of\s+the\s+(ai|llm|language model|assistant)|(ai|llm|language model|model)\s+(you are|is answering|answering|you run|calling this)|which\s+(ai|llm|language model|model)\s+(is|are|you)|who (made|created|built|trained) you|system[ _-]?(prompt|message)|(rules|guidelines|instructions|policies)\s+(that\s+)?you\s+(follow|obey|were given)|(conversation|chat|message)\s+(so far|history|transcript|log)|(full|entire|whole|complete)\s+(conversation|chat|transcript|context)|(previous|prior|past|earlier)\s+(messages|prompts|turns|tool calls|answers|replies|responses)|(said|written|typed|shared)\s+in\s+(this|the)\s+(session|conversation|chat)|(everything|all)\s+(said|written)\s+(so far|in this)|(messages|said|exchanged|written|discussed)\s+(so far|until now|up to now)|context window|(everything|all) you (remember|know) about|(prompt|instructions|configuration)\b[^.\n]{0,30}\b(configures?|configuring|sets? up|drives?|governs?|controls?)\s+(the\s+|your\s+)?(assistant|model|ai|agent|you)\b|(the user|they|the person)\s+(told|said to|gave|showed)\s+you|which\s+([a-z]+\s+){1,3}(ai|llm|language model|model)\b|(is|are)\s+(executing|running|answering|handling|processing)\s+this\s+(request|call|conversation)|(your|the)\s+(persona|model family|training (cutoff|data)|refusal rules|content guidelines)|(turns|messages|exchanges)\s+of\s+(the\s+)?(dialogue|dialog|conversation|chat)|tools?\s+(available to you|you (can call|can use|have))|every tool (available|you)|(messages|everything|all)\b[^.\n]{0,30}\bin (this|the) (chat|conversation|session)|answering (the user|you|this)|(model|llm|ai)\b[^.\n]{0,30}\b(right now|currently answering|you are using)|(prompt|instructions) you (received|got|were given)|outputs?\s+of\s+the\s+other\s+tools|(results|outputs)\s+of\s+(the\s+)?other\s+tools|other tools you (called|used)|previous prompts)`)

// outOfScopeName are parameter names no tool needs (as words: any of the
// name's words, or two of them together).
var outOfScopeName = regexp.MustCompile(`(^| )(llm|transcript|conversation|chat (log|history)|message history|system prompt|assistant (model|name|identity|rules|instructions|version|prompt)|prior context|persona|ai (model|name|identity)|model identity|caller model|calling model|previous (messages|prompts|answers|replies|responses)|prior (tool results|messages|answers)|tool (outputs|results)|session (transcript|log|history)|context window|assistant memory|(recent|last|previous|past) (turns|messages|exchanges)|tool list|available tools|operator instructions|instructions)( |$)`)

// credentialName and credentialText are what a parameter may ask for
// that only a tool about signing in, keys or secrets needs: as its name
// (the whole name, or its last words: "smtp_password", not "max_tokens")
// and in its description.
var (
	credentialName = regexp.MustCompile(`\b(password|passwd|passphrase|api ?key|access token|personal access token|auth token|bearer( token)?|token|secret|secret key|private key|ssh key|credentials?|login|cookies?|pat)$`)
	credentialText = regexp.MustCompile(`\b(password|passphrase|api key|access token|personal access token|auth token|bearer token|secret key|secret|private key|ssh key|credentials|login|cookies?)s?\b`)
)

// notCredential are tokens that are not secrets: pages of a listing, a
// model's output length.
var notCredential = regexp.MustCompile(`\b(continuation|next|page|pagination|paging|cursor|sync|max|maximum|number of|count of|output) tokens?\b|\btokens? (to generate|limit|count|usage)\b`)

// credentialScope are words of a tool's own name and description that make
// asking for a credential plausible.
var credentialScope = regexp.MustCompile(`\b(password|passwd|credential|auth\w*|log ?in|sign ?in|keys?|secrets?|tokens?|certificates?|pfx|vault|accounts?|admin\w*|users?|connect\w*|database|sql|ssh|git|login|encrypt\w*|decrypt\w*|sign\w*)\b`)

// toolScope is what a tool's own name and description are about, as far
// as its parameters' requests go; worked out when a parameter asks.
type toolScope struct {
	text         string
	done         bool
	conversation bool // agents, chats, conversations, completions
	credentials  bool // signing in, keys, secrets, accounts
}

func (sc *toolScope) get() *toolScope {
	if !sc.done {
		l := lowerASCII(sc.text)
		sc.conversation = strings.Contains(l, "agent") || strings.Contains(l, "chat") || strings.Contains(l, "conversation") || strings.Contains(l, "completion")
		sc.credentials = credentialScope.MatchString(l)
		sc.done = true
	}
	return sc
}

// paramWords are in every request checkParam looks for in a parameter's
// description: the expressions run only on those that hold one.
var paramWords = []string{"your", "you ", "the user", "assistant", " ai", "llm", "model", "system", "conversation", "chat", "message", "transcript", "context", "previous", "prior", "past", "earlier", "session", "tool", "secret", "password", "key", "token", "credential", "login", "cookie"}

// checkParam flags a parameter that asks for what its tool cannot need:
// the model's identity, the conversation, its instructions, other tools'
// results, and credentials a tool about none of them asks for (or the
// user's own).
func checkParam(words, desc string, sc *toolScope) (string, bool) {
	lw, ld := lowerASCII(words), lowerASCII(desc)
	if outOfScopeName.MatchString(lw) && !sc.get().conversation {
		return words, true
	}
	if !slices.ContainsFunc(paramWords, func(w string) bool { return strings.Contains(ld, w) }) {
		ld = ""
	}
	if ld != "" {
		if m := outOfScope.FindString(ld); m != "" && !sc.get().conversation {
			return m, true
		}
	}
	if ld != "" && credentialText.MatchString(ld) && !notCredential.MatchString(ld) && !sc.get().credentials {
		return credentialText.FindString(ld), true
	}
	users := strings.Contains(ld, "the user's") || strings.Contains(ld, "of the user") || strings.Contains(ld, "for the user") || strings.HasPrefix(ld, "your ")
	if credentialName.MatchString(lw) || users && credentialText.MatchString(ld) {
		if users || !sc.get().credentials {
			return words, true
		}
	}
	return "", false
}

// flag adds the flags of every tool: what its definition's strings say
// (every string: see fields), what they name of other servers' tools, and
// names that look like others (on the same server, or another's). The
// lookups across servers go through indexes built once (by name, by
// look-alike skeleton, by alias), so the cost is linear in the catalog's
// text whatever the number of servers. Called with c.tools sorted by
// display name.
func (c *Catalog) flag(memo *Memo) {
	ix := newNameIndex(c.tools)
	for i := range c.tools {
		t := &c.tools[i]
		own, ok := memo.get(t.Hash)
		if !ok {
			own = ownFlags(t)
			memo.put(t.Hash, own)
		}
		flags := slices.Clone(own.flags)
		add := func(kind, text string) {
			if !slices.ContainsFunc(flags, func(f Flag) bool { return f.Kind == kind }) {
				flags = append(flags, Flag{Kind: kind, Text: text})
			}
		}
		for _, f := range own.texts {
			if other := ix.namesOther(t.Server, f.text); other != "" {
				add(KindShadowing, "its "+f.where+" names "+other+", a tool of another server")
				break
			}
		}
		for _, s := range ix.alike(t) {
			add(KindCollision, s)
		}
		t.Flags = append(t.Flags, flags...)
	}
}

// own is what a definition earns by itself: the flags of its own text,
// and its strings as the checks across servers read them.
type own struct {
	flags []Flag
	texts []field
}

// ownFlags flags what t's definition says by itself (every string: see
// fields), leaving the checks across tools to flag.
func ownFlags(t *Tool) own {
	var out own
	add := func(kind, text string) {
		if !slices.ContainsFunc(out.flags, func(f Flag) bool { return f.Kind == kind }) {
			out.flags = append(out.flags, Flag{Kind: kind, Text: text})
		}
	}
	fs := fields(t)
	descs := map[string]string{} // each parameter's description
	for _, f := range fs {
		if f.param != "" && !f.name && strings.HasSuffix(f.where, "description") {
			if _, ok := descs[f.param]; !ok {
				descs[f.param] = f.text
			}
		}
	}
	scope := &toolScope{text: nameWords(t.Name) + " " + t.Raw.Title + " " + t.Raw.Description}
	var all strings.Builder
	for _, f := range fs {
		if f.name {
			all.WriteString(nameWords(f.text))
		} else {
			all.WriteString(clean.Text(f.text))
		}
		all.WriteString("\n.\n") // no sign reads across a "."
	}
	// Signs are rare: each is tried once on the whole definition, and on
	// each string only when it matched there.
	joined := lowerASCII(all.String())
	cands := slices.DeleteFunc(candidates(joined), func(s *sign) bool {
		if s.re == nil {
			return ordersReader(joined) == nil
		}
		return !s.re.MatchString(joined)
	})
	for _, f := range fs {
		if f.text == "" {
			continue
		}
		text := f.text
		if what, hid := hiddenIn(f.text); hid {
			if f.schema {
				add(KindHidden, "its "+f.where+" holds "+what+", which the model gets as it is")
			} else {
				add(KindCleaned, "its "+f.where+" held "+what+" (removed before you or the model read it)")
			}
			text = clean.Text(text) // "ig\u200bnore" is read as "ignore"
		}
		if f.name {
			text = nameWords(text)
			if strings.Count(text, " ") < 2 {
				text = "" // a name of one or two words gives no orders
			}
		}
		for _, m := range allSigns(text, cands) {
			add(m.kind, "its "+f.where+" "+kindSays[m.kind]+" ("+quote(m.text)+")")
		}
		if text != "" {
			out.texts = append(out.texts, field{where: f.where, text: text})
		}
		if f.name {
			if m, ok := checkParam(nameWords(f.text), descs[f.param], scope); ok {
				add(KindParameter, "its parameter "+quote(f.param)+" asks for what the tool cannot need ("+quote(m)+")")
			}
		}
	}
	return out
}

// Memo keeps what each definition earns by itself (ownFlags), by its
// hash, across the catalogs a registry builds: when one server's tools
// change, only its new definitions are read. Entries not used during the
// last round (see Round) are dropped. A nil *Memo keeps nothing. Safe for
// concurrent use.
type Memo struct {
	mu         sync.Mutex
	cur, older map[string]own
}

func (m *Memo) get(hash string) (own, bool) {
	if m == nil || hash == "" {
		return own{}, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if o, ok := m.cur[hash]; ok {
		return o, true
	}
	if o, ok := m.older[hash]; ok {
		if m.cur == nil {
			m.cur = map[string]own{}
		}
		m.cur[hash] = o
		return o, true
	}
	return own{}, false
}

func (m *Memo) put(hash string, o own) {
	if m == nil || hash == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cur == nil {
		m.cur = map[string]own{}
	}
	m.cur[hash] = o
}

// Round begins a round of builds (the registry's catalogs after one
// change): what the round before used is kept one round more.
func (m *Memo) Round() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.older, m.cur = m.cur, map[string]own{}
	if m.older == nil {
		m.older = map[string]own{}
	}
}

// plainSpace are the formatting characters that hide nothing: tabs and
// line ends, CRLF included (Windows servers end lines so).
var plainSpace = strings.NewReplacer("\r\n", "", "\n", "", "\t", "")

// hiddenIn describes the first character of text a person would not see
// as it is, tabs and line ends apart.
func hiddenIn(text string) (string, bool) {
	what, _, hid := clean.Hidden(plainSpace.Replace(text))
	return what, hid
}

// nameIndex holds the catalog's names for the checks across servers.
type nameIndex struct {
	tools  []Tool
	byName map[string][]int // lower-case tool name → tools
	bySkel map[string][]int // skeleton of the name → tools
	// aliases: lower-case alias → the alias; aliasSkel: skeleton → aliases.
	aliases   map[string]string
	aliasSkel map[string][]string
	// samePlace: skeleton of server and tool → tools (look-alikes on one
	// server).
	samePlace map[string][]int
}

func newNameIndex(list []Tool) *nameIndex {
	ix := &nameIndex{tools: list, byName: map[string][]int{}, bySkel: map[string][]int{}, aliases: map[string]string{}, aliasSkel: map[string][]string{}, samePlace: map[string][]int{}}
	for i, t := range list {
		n := strings.ToLower(t.Name)
		ix.byName[n] = append(ix.byName[n], i)
		sk := skeleton(t.Name)
		ix.bySkel[sk] = append(ix.bySkel[sk], i)
		key := t.Server + "." + sk
		ix.samePlace[key] = append(ix.samePlace[key], i)
		la := strings.ToLower(t.Server)
		if _, ok := ix.aliases[la]; !ok {
			ix.aliases[la] = t.Server
			as := skeleton(t.Server)
			ix.aliasSkel[as] = append(ix.aliasSkel[as], t.Server)
		}
	}
	return ix
}

// words splits text into the identifiers it holds, with what joins them:
// "fs.read_file", "fs/read_file", "fs__read_file", "fs:read_file" are
// alias and tool; plain words too.
var wordRe = regexp.MustCompile(`[A-Za-z0-9][A-Za-z0-9_-]*`)

// namesOther returns a tool of a server other than alias that text names,
// or "": as alias.tool, alias/tool, alias:tool or alias__tool in any case,
// as a distinctive tool name (one with _ or - or a capital inside) that
// only other servers have, or as a tool name in a text that names its
// server ("the read_text_file tool of the fs server"). Each word is one
// lookup in the index.
func (ix *nameIndex) namesOther(alias, text string) string {
	locs := wordRe.FindAllStringIndex(text, -1)
	if len(locs) == 0 {
		return ""
	}
	lowerAlias := strings.ToLower(alias)
	mentioned := map[string]bool{} // other servers' aliases named in text
	for _, l := range locs {
		w := strings.ToLower(text[l[0]:l[1]])
		if a, ok := ix.aliases[w]; ok && w != lowerAlias {
			mentioned[a] = true
		}
		// A wire name: alias__tool.
		if a, tool, ok := strings.Cut(w, "__"); ok && a != lowerAlias {
			if d := ix.toolOf(ix.aliases[a], tool); d != "" {
				return d
			}
		}
	}
	for k, l := range locs {
		w := strings.ToLower(text[l[0]:l[1]])
		// alias.tool, alias/tool, alias:tool (the alias word just before).
		if k > 0 && l[0] > 0 && strings.ContainsRune("./:", rune(text[l[0]-1])) && locs[k-1][1] == l[0]-1 {
			prev := strings.ToLower(text[locs[k-1][0]:locs[k-1][1]])
			if a, ok := ix.aliases[prev]; ok && prev != lowerAlias {
				if d := ix.toolOf(a, w); d != "" {
					return d
				}
			}
		}
		idx, ok := ix.byName[w]
		if !ok {
			continue
		}
		own := slices.ContainsFunc(idx, func(i int) bool { return ix.tools[i].Server == alias })
		if own {
			continue
		}
		orig := text[l[0]:l[1]]
		distinctive := strings.ContainsAny(orig, "_-") || hasInnerUpper(orig)
		for _, i := range idx {
			o := ix.tools[i]
			if distinctive || mentioned[o.Server] {
				return o.Display
			}
		}
	}
	return ""
}

func hasInnerUpper(s string) bool {
	for i := 1; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' && 'a' <= s[i-1] && s[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// toolOf is the display name of alias's tool called name (any case), or "".
func (ix *nameIndex) toolOf(alias, name string) string {
	if alias == "" {
		return ""
	}
	for _, i := range ix.byName[strings.ToLower(name)] {
		if ix.tools[i].Server == alias {
			return ix.tools[i].Display
		}
	}
	return ""
}

// alike says which names t's name or server's alias look like: on the
// same server, names equal but for case or confusable characters; on
// other servers, the same name, or one that looks like it; and other
// aliases that look like t's.
func (ix *nameIndex) alike(t *Tool) []string {
	var out []string
	sk := skeleton(t.Name)
	for _, j := range ix.samePlace[t.Server+"."+sk] {
		b := ix.tools[j]
		switch {
		case b.Display == t.Display:
		case strings.EqualFold(t.Name, b.Name):
			out = append(out, "its name differs only in case from "+b.Display+" on the same server")
		default:
			out = append(out, "its name looks like "+b.Display+" on the same server (characters easy to confuse: "+confusedIn(t.Name, b.Name)+")")
		}
	}
	for _, a := range ix.aliasSkel[skeleton(t.Server)] {
		if a != t.Server {
			out = append(out, fmt.Sprintf("its server's alias %s looks like %s, another server's", t.Server, a))
			break
		}
	}
	same, like := "", ""
	for _, j := range ix.bySkel[sk] {
		b := ix.tools[j]
		if b.Server == t.Server {
			continue
		}
		// The same name on two servers is common (github.list_issues,
		// linear.list_issues): flagged when one passes for the other (a
		// description much like the other's, or none of its own), or when
		// the names differ in a letter or digit easy to confuse (a
		// deliberate look-alike, not a naming convention).
		deliberate := strings.ReplaceAll(strings.ToLower(t.Name), "-", "_") != strings.ReplaceAll(strings.ToLower(b.Name), "-", "_") || t.Name != b.Name && strings.EqualFold(t.Name, b.Name)
		if !deliberate && !passesFor(t, &b) {
			continue
		}
		if b.Name == t.Name {
			if same == "" {
				same = b.Display
			}
		} else if like == "" {
			like = b.Display
		}
	}
	if same != "" {
		out = append(out, "its name is also "+same+"'s, and its description is much like it: one may pass for the other")
	}
	if like != "" {
		out = append(out, "its name looks like "+like+" on another server (characters easy to confuse: "+confusedIn(t.Name, strings.TrimPrefix(like, like[:strings.IndexByte(like, '.')+1]))+")")
	}
	return out
}

// passesFor reports whether a's description says little that b's does
// not: once the words of their names are set aside, a holds no word of
// its own, or at least half of the fewer words are shared.
func passesFor(a, b *Tool) bool {
	name := map[string]bool{}
	for _, w := range strings.Fields(nameWords(a.Name) + " " + nameWords(b.Name)) {
		name[w] = true
	}
	wa, wb := contentWords(a.Def.Description, name), contentWords(b.Def.Description, name)
	if len(wa) == 0 {
		return true
	}
	if len(wb) == 0 {
		return false
	}
	shared := 0
	for w := range wa {
		if wb[w] {
			shared++
		}
	}
	return 2*shared >= min(len(wa), len(wb))
}

// contentWords are text's words of three letters or more, lower case,
// but for skip and a few of the commonest.
func contentWords(text string, skip map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, w := range wordRe.FindAllString(lowerASCII(text), -1) {
		w = strings.TrimSuffix(w, "s")
		if len(w) < 3 || skip[w] || skip[w+"s"] || commonWords[w] {
			continue
		}
		out[w] = true
	}
	return out
}

var commonWords = map[string]bool{"the": true, "and": true, "for": true, "with": true, "thi": true, "that": true, "from": true, "into": true, "are": true, "can": true, "its": true, "use": true, "all": true, "one": true, "your": true, "you": true, "return": true, "given": true, "specified": true}

// confusables are the ASCII sequences a reader easily takes for another, and
// what skeleton makes of each. Longer ones come first.
var confusables = strings.NewReplacer("rn", "m", "vv", "w", "cl", "d", "0", "o", "1", "l", "i", "l", "5", "s", "3", "e", "q", "g", "-", "_", ".", "_")

// skeleton is what a name looks like to a hurried reader: lower case, and
// each confusable replaced by what it is taken for; a trailing "_" (or
// "-") goes too.
func skeleton(name string) string {
	return strings.TrimRight(confusables.Replace(strings.ToLower(name)), "_")
}

// confusedIn names the characters that make a and b look alike, for the
// warning: those that differ, position by position, when the names are as
// long; otherwise the multi-letter look-alikes (rn and m) they hold.
func confusedIn(a, b string) string {
	var out []string
	add := func(x, y string) {
		if x > y {
			x, y = y, x
		}
		if p := x + " and " + y; !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	la, lb := strings.ToLower(a), strings.ToLower(b)
	if len(la) == len(lb) {
		for i := range len(la) {
			if la[i] != lb[i] {
				add(la[i:i+1], lb[i:i+1])
			}
		}
	} else {
		for _, p := range [][2]string{{"rn", "m"}, {"vv", "w"}, {"cl", "d"}} {
			if (strings.Contains(la, p[0]) && strings.Contains(lb, p[1])) || (strings.Contains(la, p[1]) && strings.Contains(lb, p[0])) {
				out = append(out, p[0]+" and "+p[1])
			}
		}
	}
	if la != a || lb != b {
		out = append(out, "case")
	}
	if len(out) == 0 {
		return "several"
	}
	return strings.Join(out, ", ")
}
