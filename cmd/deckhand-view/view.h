int dv_run(char *title, char *html, char *csp, int width, int height, int sandbox, char *proxy);
void dv_eval(char *js);
void dv_resize(int w, int h);
void dv_raise(void);
void dv_quit(void);
