package tools

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// A sign is a regular expression over lower-case text, tried only on text
// holding one of its words (most descriptions hold none, and the
// expressions are the costly part).
type sign struct {
	kind  string
	words []string
	re    *filtered // nil for ordersReader
}

func signOf(kind string, words []string, expr string) sign {
	return sign{kind: kind, words: words, re: mustFilter(expr)}
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
	{kind: KindInstructions, words: []string{"you", "assistant", "model", " ai", "ai ", "llm", "agent", "whoever", "reader", "reading"}},
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
	// Operator notes, lasting orders, coercion, results to apply.
	signOf(KindInstructions, []string{"[", "remainder", "rest of the", "no matter", "answer", "respond", "reply", "apply", "execute", "carry out", "trusted", "skip"}, `\[\s*(operator|developer|admin|administrator|system|platform)(\s+(message|note|notice|instructions?))?\s*\]|\bfor the (remainder|rest) of the (chat|session|conversation)\b|\bno matter what (the|it|they|you)\b|\b(answer|respond to|reply to)\s+(every|all|any)\b[^.\n]{0,40}\bwith\b|\b(apply|follow|execute|carry out|run|perform)\s+(any|all|every|the)\s+([a-z]+\s+){0,2}(settings|steps|instructions|commands|actions)\s+(it|they|the (result|output|text))\s+(lists?|contains?|gives?|says?|includes?)\b|\b(text|result|output|content)s?\b[^.\n]{0,30}\bis\s+trusted\b|\bskip(ping)?\s+(every|all|any|the)\s+([a-z]+\s+)?(approval|confirmation|consent)s?\b`),
	signOf(KindConcealment, []string{"in the dark", "mention only", "only mention", "only say"}, `\bin the dark\b|\bmention only\b|\bonly mention\b|\bonly say\b`),
	// Telling the person things, running what a result says, answering
	// a set way, refusals turned to consent.
	signOf(KindInstructions, []string{"inform", "tell", "notify", "remind", "warn", "advise", "recommend", "suggest", "promote", "advertise", "convince", "persuade", "urge", "executed", "evaluated", "respond", "reply", "answer", "begin", "treat"}, `\b(inform|tell|notify|remind|warn|advise|recommend to|suggest to|promote to|advertise to|convince|persuade|urge)\s+(the\s+)?(user|person|human|customer|them)\b|\b(executed|run|evaluated|interpreted)\s+as\s+(a\s+)?(shell\s+)?(commands?|code|script|instructions?)\b|(^|[.;:,]\s*|\b(first|then|always)\s+)(respond|reply|answer|begin your (reply|answer|response))\s+with\b|\btreat\b[^.\n]{0,40}\bas\s+(consent|approval|permission|authori[sz]ation|confirmation|instructions?|commands?)\b`),
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
	signOf(KindExfiltration, []string{"you ", "you'", "so far", "in this session", "in this conversation", "in this chat", "the user", "earlier", "showed", "shown", "every file", "all files", "each file", "every document", "all documents", "tabs", "received"}, `\b(include|attach|pass|put|append|insert|embed|send|copy|paste|provide|supply|forward|upload|add|read|encode|contain|carry)\b[^.\n]{0,80}\b(you (have|'ve) (seen|read|received|opened|written|edited|been (shown|given|told))|you (were|have been) (shown|given|told)|you (saw|know|read|opened|wrote|edited|accessed|fetched|looked at)|(the user|they) (has |have )?(shared|mentioned|provided|gave|typed|entered|said|showed)|showed you|shown to you|(so far|earlier|previously)\b|(in|from) (this|the) (session|conversation|chat|context)|(every|all|each)\s+(other\s+)?(open\s+)?(files?|documents?|tabs?)\s+(open|in the (editor|workspace))|(responses?|results?|outputs?) you('ve| have)? (received|got|seen))`),
	signOf(KindExfiltration, []string{"send", "upload", "post", "forward", "copy", "mail", "share", "store", "sync", "submit", "transmit", "ship", "deliver", "relay", "dispatch", "mirror", "rsync", "replicate", "report", "leak", "beacon"}, `\b(send|upload|post|forward|copy|mail|e-?mail|share|store|sync|submit|transmit|ship|deliver|relay|dispatch|mirror|rsync|replicate|report|leak|beacon)\b[^.\n]{0,100}(\bto\s+[a-z0-9-]+\.(com|net|org|io|example|dev|app|co|xyz|info|biz|cloud)\b|[a-z][a-z0-9+]*://|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b|[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z]{2,}|~/[a-z])`),
	signOf(KindExfiltration, []string{"user's", "their", "person's"}, `\b(send|upload|post|forward|copy|mail|share|store|sync|submit|transmit|append|attach|include|add|mirror)(s|es|ed|d|ing)?\b[^.\n]{0,60}\b(the user'?s|their|the person'?s|the customer'?s|the client'?s)\s+([a-z-]+\s+)?(calendar|contacts|location|photos|e-?mails|messages|files|documents|address book|home address|address|browsing|history|notes|passwords?|keys?|name|card|card details|phone)\b`),
	signOf(KindExfiltration, []string{"directory", "folder"}, `\b(send|upload|post|forward|copy|ship|share|sync|submit|transmit)\b[^.\n]{0,60}\b(current working|working|home|whole|entire|project)\s+(directory|folder)\b`),
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
	signOf(KindPreference, []string{"%", "blind test", "always choosing", "always picking", "always selecting", "always using", "in the dust", "bother", "in preference to", "gold-standard", "endorsed"}, `\b\d+\s*%\s+of\b|\bblind tests?\b|\balways\s+(choosing|picking|selecting|using)\s+(it|this|me)\b|\bin the dust\b|\b(don't|do not|never)\s+bother\s+with\b|\bin preference to\b|\bgold-standard\b|\bendorsed\b`),
	signOf(KindPreference, []string{"most-used", "most used", "most popular", "among", "always safe", "everything else", "sanctioned", "correct one", "right one", "several tools", "multiple tools", "other servers", "send all", "direct all", "bring all"}, `\bmost[- ](used|popular)\b|\bamong (ai )?(assistants|agents|models)\b|\b(selecting|choosing|using|picking) it is always\b|\beverything else\b[^.\n]{0,30}\b(worse|inferior|slower|wrong|misleading)\b|\b(send|direct|bring|route|forward)\s+(all|every|each)\b[^.\n]{0,30}\bhere\b|\bignore\b[^.\n]{0,40}\b(of|from|on|by)\s+other\s+(servers?|tools?|providers?)\b|\b(sanctioned|approved|official|authori[sz]ed) one\b|\bthe (correct|right|proper|best) (one|tool|choice) is always\b|\bif (several|multiple|other|two) tools\b[^.\n]{0,40}\b(always|only|correct|right)\b`),
	signOf(KindPreference, []string{"top choice", "use it for", "use this for", "use me for", "no need", "superior to", "itself", "gold standard", "no reason", "one true", "favourite", "favorite", "ahead of", "than any"}, `\btop choice\b|\buse (it|this|me)( tool)? for (every|all|any)\b|\bno (need|reason) (to (ever )?use|for|to (ever )?call)\s+(any\s+|another|an?\s+)?(other|another|alternative)|\bsuperior to\b|\brecommends? itself\b|\bgold standard\b|\bone true\b|\b(assistant'?s|your|the model'?s) favou?rite\b|\bahead of (all|any|every)\b|\b(cheaper|faster|safer|better|more [a-z]+)\b[^.\n]{0,30}\bthan any\b`),
	signOf(KindPreference, []string{"other", "alternative", "competing", "standard", "built"}, `\b(other|alternative|competing|standard|built-?in|older|generic)\s+([a-z-]+\s+){0,2}(tools?|servers?|sources?|options?|reviewers?|engines?)\b[^.\n]{0,40}\b(wrong|inaccurate|unreliable|outdated|deprecated|broken|insecure|inferior|must not be used|should not be used|fail|leak|miss|made-up|made up|fake|return (made|fake|bad)|lose|corrupt)`),
	signOf(KindPreference, []string{"need"}, `\b(the\s+)?only\s+([a-z-]+\s+)?(tool|server|function)\s+(you|that you)\s+(will\s+)?(ever\s+)?(need|should)`),
	signOf(KindPreference, []string{"other "}, `\bother\s+([a-z-]+\s+)?(tools?|servers?)\s+(are|is)\s+(outdated|deprecated|unreliable|broken|insecure|inferior|slow|unsafe|dangerous|buggy|stale)|\b(all|every)\s+other\s+([a-z-]+\s+)?(tools?|servers?|engines?)\b`),
}

// candidates are the signs whose words some text holds (a tool's strings
// joined, lower case): the others cannot match any of them. One pass over
// the text, each position looking up the words that begin with its byte
// or its two bytes (signWords), rather than one search per word: the
// searches took a third of a catalog's flagging.
func candidates(lower string) []*sign {
	var hit [64]bool
	if len(signs) > len(hit) {
		return candidatesBySearch(lower)
	}
	for i := 0; i < len(lower); i++ {
		for _, s := range signWords.one[lower[i]] {
			hit[s] = true
		}
		if i+1 == len(lower) {
			break
		}
		k := signWords.pair[uint16(lower[i])<<8|uint16(lower[i+1])]
		if k == 0 {
			continue
		}
		for _, w := range signWords.lists[k-1] {
			if !hit[w.sign] && strings.HasPrefix(lower[i:], w.word) {
				hit[w.sign] = true
			}
		}
	}
	var out []*sign
	for i := range signs {
		if hit[i] {
			out = append(out, &signs[i])
		}
	}
	return out
}

// candidatesBySearch is candidates by one search per word: what it must
// find, and its way should the signs outgrow its table.
func candidatesBySearch(lower string) []*sign {
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

type signWord struct {
	sign int
	word string
}

// signWords files the signs' words by their first byte (words of one
// byte) or first two bytes (pair: 1 + the index in lists; 0 for none).
var signWords = func() (t struct {
	one   [256][]int
	pair  [1 << 16]uint16
	lists [][]signWord
}) {
	for i, s := range signs {
		for _, w := range s.words {
			if len(w) == 1 {
				t.one[w[0]] = append(t.one[w[0]], i)
				continue
			}
			k := uint16(w[0])<<8 | uint16(w[1])
			if t.pair[k] == 0 {
				t.lists = append(t.lists, nil)
				t.pair[k] = uint16(len(t.lists))
			}
			t.lists[t.pair[k]-1] = append(t.lists[t.pair[k]-1], signWord{i, w})
		}
	}
	return t
}()

// match is a sign found: its kind, and the text it matched.
type match struct{ kind, text string }

// allSigns returns each kind's first sign in text, in the order of signs,
// with what matched (in the original text's letters), but for the kinds
// already flagged (found).
func allSigns(text string, found []Flag) []match {
	if text == "" {
		return nil
	}
	lower := lowerASCII(text)
	var out []match
	var digest pairSet
	var ps *pairSet // made for the first sign tried
	for _, s := range candidates(lower) {
		if slices.ContainsFunc(out, func(m match) bool { return m.kind == s.kind }) ||
			slices.ContainsFunc(found, func(f Flag) bool { return f.Kind == s.kind }) {
			continue
		}
		if ps == nil {
			ps = digest.of(lower)
		}
		var m []int
		if s.re == nil {
			m = ordersReader(lower)
		} else {
			m = s.re.findIndex(lower, ps)
		}
		if m != nil {
			out = append(out, match{s.kind, text[m[0]:m[1]]})
		}
	}
	return out
}

// The parts of a sentence that orders its reader: who it speaks to, the
// order, and what the order is about when it is not the tool's own work
// (what to say, hide or obey, goals, every reply).
var (
	readerWords = mustFilter(`\b(you|your|yourself|assistant|ai|llm|model|agent|chatbot|claude|gpt|whoever|anyone reading|reader)\b`)
	orderWords  = mustFilter(`\b(must|have to|has to|need to|needs to|shall|always|never|do not|don't|make sure|ensure|required|requirement|mandatory|immediately|no longer|from now|is expected to|are expected to|should|your (real|true|actual|new|one|only|main) (task|goal|job|purpose|mission))\b`)
	beyondWords = regexp.MustCompile(`\b(tell|say|claim|lie|pretend|refuse|reply|respond|reveal|hide|conceal|report only|act as|goal|task|priority|obey|comply|carry (it|them) out|instructions?|told|updated|success|unrestricted|every (reply|answer|response|message|conversation)|after every|before doing anything|once per conversation|the user (is|was|has)|quietly|secretly|matters?)\b`)
	sentenceEnd = regexp.MustCompile(`[.!?;\n]+\s*`)
	// imperative: a clause that starts with a verb giving an order.
	imperative = mustFilter(`(^|[:,;(]\s*|\b(so|then|and|but|now|please)\s+)(refuse|tell|say|lie|answer|respond|send|report|hide|keep|ignore|treat|follow|obey|act|pretend|delete|stop|forget|claim|append|post)\b`)
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
		var digest pairSet
		ps := digest.of(sent)
		if readerWords.match(sent, ps) {
			n := len(beyondWords.FindAllStringIndex(sent, 3))
			ordered := orderWords.match(sent, ps)
			if ordered && n >= 2 || n >= 1 && (ordered || imperative.match(sent, ps)) && n+boolInt(ordered)+boolInt(imperative.match(sent, ps)) >= 2 {
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

// filtered is a regular expression kept as its alternatives (branches),
// each run only on text that holds a literal of each set it requires: the
// signs are large alternations that RE2 steps through byte by byte, and
// most text that holds a sign's word holds no more of a branch ("tell"
// without "user"). It finds what the whole expression finds.
//
// The branches are compiled when first used, not at start, and let go by
// ReleaseFilters: compiled, the filters hold 1.6 MB of heap (the bounded
// repeats such as [^.\n]{0,40} are one instruction a repeat), which an idle
// window kept for its life though they run only when a server's tools
// change. Compiling them all again takes about 15 ms.
type filtered struct {
	expr     string
	compiled atomic.Pointer[[]branch]
	mu       sync.Mutex // held while compiling
}

// A branch is one alternative of the expression and the literals it
// needs: one of each set must be in the text for it to match.
type branch struct {
	re   *regexp.Regexp
	need [][]string
	head *head // nil: the branch starts otherwise
}

// A head is how a branch starts when it starts with a word boundary and
// one of a few words (`\b(send|upload|mail)\b…`): one of them must stand
// there, at a word boundary, for the branch to match. Most text that
// holds such a word holds it inside another ("mail" in "gmail"), and
// proving that no match starts there took the branch's expression (large,
// with its bounded repeats) a sixth of a catalog's time.
type head struct {
	words []string
	end   bool // a word boundary after the word too
}

// headOf is re's head, or nil.
func headOf(re *syntax.Regexp) *head {
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 || re.Sub[0].Op != syntax.OpWordBoundary {
		return nil
	}
	words, ok := finite(re.Sub[1], 64)
	if !ok || slices.Contains(words, "") {
		return nil
	}
	return &head{words: words, end: len(re.Sub) > 2 && re.Sub[2].Op == syntax.OpWordBoundary}
}

// finite is every string re matches, when they are at most limit (false
// for more, or for an expression it does not read).
func finite(re *syntax.Regexp, limit int) ([]string, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out) == limit {
					return nil, false
				}
				out = append(out, string(r))
			}
		}
		return out, true
	case syntax.OpCapture:
		return finite(re.Sub[0], limit)
	case syntax.OpQuest:
		out, ok := finite(re.Sub[0], limit-1)
		return append(out, ""), ok
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			more, ok := finite(sub, limit-len(out))
			if !ok {
				return nil, false
			}
			out = append(out, more...)
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			more, ok := finite(sub, limit)
			if !ok || len(out)*len(more) > limit {
				return nil, false
			}
			var next []string
			for _, a := range out {
				for _, b := range more {
					next = append(next, a+b)
				}
			}
			out = next
		}
		return out, true
	}
	return nil, false
}

// at says whether one of h's words stands in s (whose digest is ps) as a
// match of the branch would start.
func (h *head) at(s string, ps *pairSet) bool {
	for _, w := range h.words {
		if !ps.contains(s, w) {
			continue
		}
		for i := 0; ; {
			j := strings.Index(s[i:], w)
			if j < 0 {
				break
			}
			j += i
			if wordBoundary(s, j) && (!h.end || wordBoundary(s, j+len(w))) {
				return true
			}
			i = j + 1
		}
	}
	return false
}

// wordBoundary is \b at i in s: an ASCII word character on one side only.
func wordBoundary(s string, i int) bool {
	return (i > 0 && isWordByte(s[i-1])) != (i < len(s) && isWordByte(s[i]))
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

// filters is every filter made (at init, by mustFilter; not changed after):
// what ReleaseFilters lets go of.
var filters []*filtered

func mustFilter(expr string) *filtered {
	f := &filtered{expr: expr}
	filters = append(filters, f)
	return f
}

// branches compiles f's branches if they are not (a panic for an
// expression that does not compile: the tests compile every filter).
func (f *filtered) branches() []branch {
	if b := f.compiled.Load(); b != nil {
		return *b
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if b := f.compiled.Load(); b != nil {
		return *b
	}
	regexp.MustCompile(f.expr) // the whole must compile as written
	var bs []branch
	for _, alt := range topAlternatives(f.expr) {
		re, err := syntax.Parse(alt, syntax.Perl)
		if err != nil {
			panic("alternative " + alt + " of " + f.expr + ": " + err.Error())
		}
		need := required(re)
		// The likeliest to be missing first: most text fails there.
		slices.SortStableFunc(need, func(a, b []string) int { return setScore(b) - setScore(a) })
		bs = append(bs, branch{re: regexp.MustCompile(alt), need: need, head: headOf(re)})
	}
	f.compiled.Store(&bs)
	return bs
}

// CompiledFilters is how many filters hold their compiled expressions now
// (the memory report logs it).
func CompiledFilters() int {
	n := 0
	for _, f := range filters {
		if f.compiled.Load() != nil {
			n++
		}
	}
	return n
}

// ReleaseFilters lets go of the compiled expressions that flag tool
// definitions, compiled again when next used: call it at rest, once the
// servers have listed their tools (a search or flagging under way keeps
// the ones it holds). Safe for concurrent use.
func ReleaseFilters() {
	for _, f := range filters {
		f.compiled.Store(nil)
	}
}

// possible says whether s (whose digest is ps) holds a literal of each
// set b needs, and b's head, if it has one.
func (b *branch) possible(s string, ps *pairSet) bool {
	for _, set := range b.need {
		if !slices.ContainsFunc(set, func(lit string) bool { return ps.contains(s, lit) }) {
			return false
		}
	}
	return b.head == nil || b.head.at(s, ps)
}

// pairSet is a digest of the two-byte sequences a text holds (each hashed to
// one of 1,024 bits; the pairSet of lower-case letters to bits of their
// own): a literal with a pair the text lacks is not in it. Most of the
// literals the branches need are in no given text, and searching for each
// took a tenth of a catalog's time; a literal's pairSet are a few bit tests.
type pairSet [16]uint64

func pairBit(a, b byte) uint { return (uint(a)<<5 ^ uint(b)) & 1023 }

// of makes p the digest of s's pairs, and returns p (a digest is made in
// its caller's frame: on the heap, one a text was a tenth of a catalog's
// garbage).
func (p *pairSet) of(s string) *pairSet {
	*p = pairSet{}
	for i := 0; i+1 < len(s); i++ {
		h := pairBit(s[i], s[i+1])
		p[h>>6] |= 1 << (h & 63)
	}
	return p
}

// contains is strings.Contains(s, lit), for the s whose digest is p.
func (p *pairSet) contains(s, lit string) bool {
	for i := 0; i+1 < len(lit); i++ {
		if h := pairBit(lit[i], lit[i+1]); p[h>>6]&(1<<(h&63)) == 0 {
			return false
		}
	}
	return strings.Contains(s, lit)
}

// FindStringIndex is the whole expression's: the leftmost match of any
// branch, the earliest branch's at a tie (an alternation prefers its first
// alternative that matches at a position).
func (f *filtered) FindStringIndex(s string) []int {
	var digest pairSet
	return f.findIndex(s, digest.of(s))
}

// findIndex is FindStringIndex for the s whose digest is ps.
func (f *filtered) findIndex(s string, ps *pairSet) []int {
	var best []int
	bs := f.branches()
	for i := range bs {
		b := &bs[i]
		if !b.possible(s, ps) {
			continue
		}
		if m := b.re.FindStringIndex(s); m != nil && (best == nil || m[0] < best[0]) {
			best = m
		}
	}
	return best
}

// MatchString says whether any branch matches.
func (f *filtered) MatchString(s string) bool {
	var digest pairSet
	return f.match(s, digest.of(s))
}

// match is MatchString for the s whose digest is ps.
func (f *filtered) match(s string, ps *pairSet) bool {
	bs := f.branches()
	for i := range bs {
		if b := &bs[i]; b.possible(s, ps) && b.re.MatchString(s) {
			return true
		}
	}
	return false
}

// topAlternatives splits expr at its top-level bars (outside groups and
// classes); an expression without one is its only alternative. An
// expression that is one group, maybe after \b, is split inside it, \b
// put before each alternative (`\b(a|b)` finds what `\ba|\bb` finds).
func topAlternatives(expr string) []string {
	for _, prefix := range []string{"", `\b`} {
		inner, ok := strings.CutPrefix(expr, prefix+"(")
		if !ok || strings.HasPrefix(inner, "?") || !strings.HasSuffix(inner, ")") {
			continue
		}
		inner = inner[:len(inner)-1]
		if alts := splitBars(inner); alts != nil && groupEnd(expr[len(prefix):]) == len(expr)-len(prefix)-1 {
			for i := range alts {
				alts[i] = prefix + alts[i]
			}
			return alts
		}
	}
	if alts := splitBars(expr); alts != nil {
		return alts
	}
	return []string{expr}
}

// splitBars splits expr at its top-level bars, nil when it has none, or
// when its parentheses do not balance.
func splitBars(expr string) []string {
	var out []string
	depth, class, start := 0, false, 0
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; {
		case c == '\\':
			i++ // an escaped byte is a literal
		case class:
			class = c != ']'
		case c == '[':
			class = true
			if i+1 < len(expr) && expr[i+1] == ']' {
				i++ // "[]..." holds a bracket
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			out = append(out, expr[start:i])
			start = i + 1
		}
		if depth < 0 {
			return nil
		}
	}
	if depth != 0 || out == nil {
		return nil
	}
	return append(out, expr[start:])
}

// groupEnd is the index of the parenthesis that closes the group expr
// opens (expr[0] == '('), -1 for none.
func groupEnd(expr string) int {
	depth, class := 0, false
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
			if i+1 < len(expr) && expr[i+1] == ']' {
				i++
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// minLiteral is the shortest literal worth a search: a set holding a
// single byte ("e" of "e-?mail") is in nearly every text.
const minLiteral = 2

// required is what re cannot match without: sets of literals, one of each
// in the text, worked out from its syntax (a concatenation needs what each
// of its parts needs; an alternation one literal of the best set of each
// alternative; what may be absent, nothing). Case-folded literals give
// nothing (the signs are written in lower case for lower-case text).
func required(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || len(string(re.Rune)) < minLiteral {
			return nil
		}
		return [][]string{{string(re.Rune)}}
	case syntax.OpCapture:
		return required(re.Sub[0])
	case syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil
		}
		return required(re.Sub[0])
	case syntax.OpConcat:
		var out [][]string
		for _, sub := range re.Sub {
			out = append(out, required(sub)...)
		}
		return out
	case syntax.OpAlternate:
		var union []string
		for _, sub := range re.Sub {
			best := bestSet(required(sub))
			if best == nil {
				return nil
			}
			for _, lit := range best {
				if !slices.Contains(union, lit) {
					union = append(union, lit)
				}
			}
		}
		return [][]string{union}
	}
	return nil
}

// bestSet is the set of sets whose shortest literal is longest (the
// likeliest to be missing from a text), nil for none.
func bestSet(sets [][]string) []string {
	var best []string
	for _, set := range sets {
		if best == nil || setScore(set) > setScore(best) {
			best = set
		}
	}
	return best
}

// setScore is the length of set's shortest literal: the longer, the
// likelier a text holds none of the set.
func setScore(set []string) int {
	n := len(set[0])
	for _, lit := range set {
		n = min(n, len(lit))
	}
	return n
}
