// The web view of one MCP App, over WebKitGTK's C API. Everything here runs
// on GTK's main thread; Go feeds it through dv_eval, dv_resize, dv_raise
// and dv_quit, which only queue work with g_idle_add (safe from any
// thread).
#include <string.h>
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include "view.h"

extern void goViewMessage(char *data, long len);
extern void goViewEvent(char *kind, char *detail);

static GtkWidget *window;
static WebKitWebView *view;
static char *page_html;
static char *page_csp;
static gboolean loaded_once;

#define VIEW_URI "deckhand-view://view/"

// The bridge: the view's window.parent is its own window (it is the top
// frame), so its postMessage of a JSON-RPC message goes to Deckhand
// through the script message handler (anything else, such as a library's
// setImmediate, stays the page's own), and Deckhand's messages arrive as
// message events whose source is that window, as the ext-apps transport
// expects of its parent.
static const char *bridge_js =
	"(() => {"
	"const h = window.webkit.messageHandlers.deckhand;"
	"const post = h.postMessage.bind(h);"
	"const local = window.postMessage.bind(window);"
	"const send = function (m, ...rest) {"
	"  if (!m || typeof m !== 'object' || m.jsonrpc !== '2.0') return local(m, ...rest);"
	"  let s; try { s = JSON.stringify(m); } catch (e) { return; } if (typeof s === 'string') post(s); };"
	"Object.defineProperty(window, 'postMessage', {value: send, writable: false, configurable: false});"
	"const receive = function (m) { window.dispatchEvent(new MessageEvent('message', {data: m, source: window, origin: location.origin})); };"
	"Object.defineProperty(window, '__deckhandReceive', {value: receive, writable: false, configurable: false});"
	"})();";

static void on_script_message(WebKitUserContentManager *m, WebKitJavascriptResult *r, gpointer data) {
	JSCValue *v = webkit_javascript_result_get_js_value(r);
	if (!jsc_value_is_string(v)) {
		goViewEvent("bad-message", "not a string");
		return;
	}
	char *s = jsc_value_to_string(v);
	goViewMessage(s, (long)strlen(s));
	g_free(s);
}

static void serve(WebKitURISchemeRequest *req, gpointer data) {
	const char *path = webkit_uri_scheme_request_get_path(req);
	if (path == NULL || strcmp(path, "/") != 0) {
		GError *err = g_error_new_literal(G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "only the view itself is served");
		webkit_uri_scheme_request_finish_error(req, err);
		g_error_free(err);
		goViewEvent("blocked-load", (char *)webkit_uri_scheme_request_get_uri(req));
		return;
	}
	gsize n = strlen(page_html);
	GInputStream *in = g_memory_input_stream_new_from_data(g_strdup(page_html), n, g_free);
	WebKitURISchemeResponse *resp = webkit_uri_scheme_response_new(in, n);
	webkit_uri_scheme_response_set_content_type(resp, "text/html; charset=utf-8");
	SoupMessageHeaders *h = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE);
	soup_message_headers_append(h, "Content-Security-Policy", page_csp);
	soup_message_headers_append(h, "Content-Type", "text/html; charset=utf-8");
	soup_message_headers_append(h, "Cache-Control", "no-store");
	webkit_uri_scheme_response_set_http_headers(resp, h);
	webkit_uri_scheme_request_finish_with_response(req, resp);
	g_object_unref(resp);
	g_object_unref(in);
}

// No navigation away: the view's own page loads once; anything else (a
// link, location =, a form, a reload to elsewhere, a new window) is
// refused and reported.
static gboolean on_decide(WebKitWebView *v, WebKitPolicyDecision *d, WebKitPolicyDecisionType type, gpointer data) {
	if (type == WEBKIT_POLICY_DECISION_TYPE_RESPONSE) {
		webkit_policy_decision_use(d);
		return TRUE;
	}
	WebKitNavigationAction *a = webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(d));
	WebKitURIRequest *r = webkit_navigation_action_get_request(a);
	const char *uri = webkit_uri_request_get_uri(r);
	if (type == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION && !loaded_once && strcmp(uri, VIEW_URI) == 0) {
		loaded_once = TRUE;
		webkit_policy_decision_use(d);
		return TRUE;
	}
	webkit_policy_decision_ignore(d);
	goViewEvent(type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION ? "blocked-window" : "blocked-navigation", (char *)uri);
	return TRUE;
}

static GtkWidget *on_create(WebKitWebView *v, WebKitNavigationAction *a, gpointer data) {
	return NULL; // no new windows
}

static gboolean on_permission(WebKitWebView *v, WebKitPermissionRequest *r, gpointer data) {
	webkit_permission_request_deny(r);
	goViewEvent("blocked-permission", (char *)G_OBJECT_TYPE_NAME(r));
	return TRUE;
}

static void on_load_changed(WebKitWebView *v, WebKitLoadEvent e, gpointer data) {
	if (e == WEBKIT_LOAD_FINISHED) goViewEvent("loaded", "");
}

static void on_crashed(WebKitWebView *v, WebKitWebProcessTerminationReason reason, gpointer data) {
	goViewEvent("crashed", reason == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT ? "exceeded its memory limit" : "the web process ended");
	gtk_main_quit();
}

static void on_destroy(GtkWidget *w, gpointer data) {
	gtk_main_quit();
}

// on_key closes the window on Ctrl+W, as its ✕ does (delete-event, then
// destroy: the helper quits, which tells Deckhand). It runs before the
// window hands the key to the page; every other key, Escape with them,
// goes on to the page (apps use Escape).
static gboolean on_key(GtkWidget *w, GdkEventKey *e, gpointer data) {
	guint mods = e->state & gtk_accelerator_get_default_mod_mask();
	if (mods == GDK_CONTROL_MASK && (e->keyval == GDK_KEY_w || e->keyval == GDK_KEY_W)) {
		gtk_window_close(GTK_WINDOW(w));
		return TRUE;
	}
	return FALSE;
}

int dv_run(char *title, char *html, char *csp, int width, int height, int sandbox, char *proxy) {
	if (!gtk_init_check(NULL, NULL)) return 1;
	page_html = html;
	page_csp = csp;
	// Nothing kept and nothing shared: an ephemeral context (memory-only
	// cookies, storage and cache, gone with the process).
	WebKitWebsiteDataManager *dm = webkit_website_data_manager_new_ephemeral();
	// In Deckhand's sandbox the only way out is its egress proxy: every
	// load goes to it (none bypassed, loopback included), and it lets
	// through only the origins the resource declared.
	if (proxy != NULL && proxy[0] != '\0') {
		WebKitNetworkProxySettings *ps = webkit_network_proxy_settings_new(proxy, NULL);
		webkit_website_data_manager_set_network_proxy_settings(dm, WEBKIT_NETWORK_PROXY_MODE_CUSTOM, ps);
		webkit_network_proxy_settings_free(ps);
	}
	WebKitWebContext *ctx = webkit_web_context_new_with_website_data_manager(dm);
	if (sandbox) webkit_web_context_set_sandbox_enabled(ctx, TRUE);
	webkit_web_context_set_cache_model(ctx, WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER);
	webkit_web_context_register_uri_scheme(ctx, "deckhand-view", serve, NULL, NULL);
	WebKitSecurityManager *sm = webkit_web_context_get_security_manager(ctx);
	webkit_security_manager_register_uri_scheme_as_secure(sm, "deckhand-view");

	WebKitUserContentManager *ucm = webkit_user_content_manager_new();
	g_signal_connect(ucm, "script-message-received::deckhand", G_CALLBACK(on_script_message), NULL);
	webkit_user_content_manager_register_script_message_handler(ucm, "deckhand");
	WebKitUserScript *us = webkit_user_script_new(bridge_js, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
		WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, NULL, NULL);
	webkit_user_content_manager_add_script(ucm, us);

	WebKitSettings *s = webkit_settings_new();
	g_object_set(G_OBJECT(s),
		"enable-developer-extras", FALSE,
		"allow-file-access-from-file-urls", FALSE,
		"allow-universal-access-from-file-urls", FALSE,
		"javascript-can-open-windows-automatically", FALSE,
		"enable-html5-local-storage", FALSE,
		"enable-html5-database", FALSE,
		"enable-page-cache", FALSE,
		"enable-media-stream", FALSE,
		"enable-webrtc", FALSE,
		"enable-dns-prefetching", FALSE,
		"enable-back-forward-navigation-gestures", FALSE,
		NULL);
	// Software rendering: a view is a small page, and no GPU process or
	// GL context is needed (nor works under a virtual display).
	webkit_settings_set_hardware_acceleration_policy(s, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);

	view = WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW,
		"web-context", ctx, "user-content-manager", ucm, "settings", s, NULL));
	g_signal_connect(view, "decide-policy", G_CALLBACK(on_decide), NULL);
	g_signal_connect(view, "create", G_CALLBACK(on_create), NULL);
	g_signal_connect(view, "permission-request", G_CALLBACK(on_permission), NULL);
	g_signal_connect(view, "load-changed", G_CALLBACK(on_load_changed), NULL);
	g_signal_connect(view, "web-process-terminated", G_CALLBACK(on_crashed), NULL);

	window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
	gtk_window_set_title(GTK_WINDOW(window), title);
	gtk_window_set_default_size(GTK_WINDOW(window), width, height);
	gtk_container_add(GTK_CONTAINER(window), GTK_WIDGET(view));
	g_signal_connect(window, "destroy", G_CALLBACK(on_destroy), NULL);
	g_signal_connect(window, "key-press-event", G_CALLBACK(on_key), NULL);
	gtk_widget_show_all(window);
	webkit_web_view_load_uri(view, VIEW_URI);
	gtk_main();
	return 0;
}

static gboolean do_eval(gpointer data) {
	if (view != NULL) webkit_web_view_evaluate_javascript(view, (char *)data, -1, NULL, NULL, NULL, NULL, NULL);
	g_free(data);
	return G_SOURCE_REMOVE;
}

void dv_eval(char *js) { g_idle_add(do_eval, g_strdup(js)); }

typedef struct { int w, h; } size;

static gboolean do_resize(gpointer data) {
	size *s = data;
	if (window != NULL) gtk_window_resize(GTK_WINDOW(window), s->w, s->h);
	g_free(s);
	return G_SOURCE_REMOVE;
}

void dv_resize(int w, int h) {
	size *s = g_new(size, 1);
	s->w = w; s->h = h;
	g_idle_add(do_resize, s);
}

// do_raise asks the window manager to bring the window in front and give
// it the keyboard (_NET_ACTIVE_WINDOW, as Deckhand's own window asks).
static gboolean do_raise(gpointer data) {
	if (window != NULL) gtk_window_present(GTK_WINDOW(window));
	return G_SOURCE_REMOVE;
}

void dv_raise(void) { g_idle_add(do_raise, NULL); }

static gboolean do_quit(gpointer data) {
	gtk_main_quit();
	return G_SOURCE_REMOVE;
}

void dv_quit(void) { g_idle_add(do_quit, NULL); }
