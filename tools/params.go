package tools

import (
	"slices"
	"strings"
)

// outOfScope are parameters asking for what no tool needs of the model:
// who it is and the rules it follows, the conversation, what it answered,
// other tools' results.
var outOfScope = mustFilter(`\b((your|the assistant'?s?|the ai'?s?|the calling|the current)\s+(model|name|identity|system prompt|prompt|instructions|guidelines|rules|system message|previous answers?|answers|replies|responses)|(the|any|every|all)\s+(secret|password|private key|api key)s?\s+(you|that you)\s+(know|have|saw|remember)|(name|identity|version)\s+(and\s+version\s+)?of\s+the\s+(ai|llm|language model|assistant)|(ai|llm|language model|model)\s+(you are|is answering|answering|you run|calling this)|which\s+(ai|llm|language model|model)\s+(is|are|you)|who (made|created|built|trained) you|system[ _-]?(prompt|message)|(rules|guidelines|instructions|policies)\s+(that\s+)?you\s+(follow|obey|were given)|(conversation|chat|message)\s+(so far|history|transcript|log)|(full|entire|whole|complete)\s+(conversation|chat|transcript|context)|(previous|prior|past|earlier)\s+(messages|prompts|turns|tool calls|answers|replies|responses)|(said|written|typed|shared)\s+in\s+(this|the)\s+(session|conversation|chat)|(everything|all)\s+(said|written)\s+(so far|in this)|(messages|said|exchanged|written|discussed)\s+(so far|until now|up to now)|context window|(everything|all) you (remember|know) about|which (assistant|ai|model|llm) (you are|are you)|(company|vendor|provider|lab)\s+((that|which)\s+)?(runs|made|trained|built|owns|created|operates) you|(facts|information|details|everything|things)\s+(you have\s+)?(stored|remembered|learned|know|kept)\s+about\s+(the\s+)?(user|person|them)|(model|assistant|ai|llm)\s+((that|which|who)\s+is\s+)?(talking|speaking|chatting)\s+(to|with)\b|(prompt|instructions|configuration)\b[^.\n]{0,30}\b(configures?|configuring|sets? up|drives?|governs?|controls?)\s+(the\s+|your\s+)?(assistant|model|ai|agent|you)\b|(the user|they|the person)\s+(told|said to|gave|showed)\s+you|which\s+([a-z]+\s+){1,3}(ai|llm|language model|model)\b|(is|are)\s+(executing|running|answering|handling|processing)\s+this\s+(request|call|conversation)|(your|the)\s+(persona|model family|training (cutoff|data)|refusal rules|content guidelines)|(turns|messages|exchanges)\s+of\s+(the\s+)?(dialogue|dialog|conversation|chat)|tools?\s+(available to you|you (can call|can use|have))|every tool (available|you)|(messages|everything|all)\b[^.\n]{0,30}\bin (this|the) (chat|conversation|session)|answering (the user|you|this)|(model|llm|ai)\b[^.\n]{0,30}\b(right now|currently answering|you are using)|(prompt|instructions) you (received|got|were given)|outputs?\s+of\s+the\s+other\s+tools|(results|outputs)\s+of\s+(the\s+)?other\s+tools|other tools you (called|used)|previous prompts)`)

// outOfScopeName are parameter names no tool needs (as words: any of the
// name's words, or two of them together).
var outOfScopeName = mustFilter(`(^| )(llm|transcript|conversation|chat (log|history)|message history|system prompt|assistant (model|name|identity|rules|instructions|version|prompt)|prior context|persona|who are you|memory dump|ai (model|name|identity)|model identity|caller model|calling model|previous (messages|prompts|answers|replies|responses)|prior (tool results|messages|answers)|tool (outputs|results)|session (transcript|log|history)|context window|assistant memory|(recent|last|previous|past) (turns|messages|exchanges)|tool list|available tools|operator instructions|instructions)( |$)`)

// credentialName and credentialText are what a parameter may ask for
// that only a tool about signing in, keys or secrets needs: as its name
// (the whole name, or its last words: "smtp_password", not "max_tokens")
// and in its description.
var (
	credentialName = mustFilter(`\b(password|passwd|passphrase|api ?key|access token|personal access token|auth token|bearer( token)?|token|secret|secret key|private key|ssh key|credentials?|login|cookies?|pat|pin|pin code)$`)
	credentialText = mustFilter(`\b(password|passphrase|api key|access token|personal access token|auth token|bearer token|secret key|secret|private key|ssh key|credentials|login|cookies?|pin)s?\b`)
)

// notCredential are tokens that are not secrets: pages of a listing, a
// model's output length.
var notCredential = mustFilter(`\b(continuation|next|page|pagination|paging|cursor|sync|max|maximum|number of|count of|output) tokens?\b|\btokens? (to generate|limit|count|usage)\b`)

// credentialScope are words of a tool's own name and description that make
// asking for a credential plausible.
var credentialScope = mustFilter(`\b(password|passwd|credential|auth\w*|log ?in|sign ?in|keys?|secrets?|tokens?|certificates?|pfx|vault|accounts?|admin\w*|users?|connect\w*|database|sql|ssh|git|login|encrypt\w*|decrypt\w*|sign\w*)\b`)

// toolScope is what a tool's own name and description are about, as far
// as its parameters' requests go; worked out when a parameter asks.
type toolScope struct {
	tool         *Tool // its name, title and description
	done         bool
	conversation bool // agents, chats, conversations, completions
	credentials  bool // signing in, keys, secrets, accounts
}

func (sc *toolScope) get() *toolScope {
	if !sc.done {
		t := sc.tool
		l := lowerASCII(nameWords(t.Name) + " " + t.Raw.Title + " " + t.Raw.Description)
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
	var dw, dd pairSet
	pw, pd := dw.of(lw), dd.of(ld)
	if outOfScopeName.match(lw, pw) && !sc.get().conversation {
		return words, true
	}
	if !slices.ContainsFunc(paramWords, func(w string) bool { return pd.contains(ld, w) }) {
		ld = ""
	}
	if ld != "" {
		if m := outOfScope.findIndex(ld, pd); m != nil && !sc.get().conversation {
			return ld[m[0]:m[1]], true
		}
	}
	if ld != "" && credentialText.match(ld, pd) && !notCredential.match(ld, pd) && !sc.get().credentials {
		m := credentialText.findIndex(ld, pd)
		return ld[m[0]:m[1]], true
	}
	users := strings.Contains(ld, "the user's") || strings.Contains(ld, "of the user") || strings.Contains(ld, "for the user") || strings.HasPrefix(ld, "your ")
	if credentialName.match(lw, pw) || users && credentialText.match(ld, pd) {
		if users || !sc.get().credentials {
			return words, true
		}
	}
	return "", false
}
