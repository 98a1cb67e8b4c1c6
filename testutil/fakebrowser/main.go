// Command fakebrowser stands in for xdg-open in sign-in tests: it opens the
// URL it is given with an HTTP client and follows the redirects (the
// authorization server's, to Deckhand's loopback redirect), as a browser
// whose person signs in at once would.
package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fakebrowser URL")
		os.Exit(2)
	}
	c := &http.Client{Timeout: 30 * time.Second}
	resp, err := c.Get(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if log := os.Getenv("FAKEBROWSER_LOG"); log != "" {
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			fmt.Fprintf(f, "%d %s\n", resp.StatusCode, resp.Request.URL.Host)
			f.Close()
		}
	}
}
