package main

import (
	"context"
	"flag"
	"fmt"
	"text/tabwriter"
	"time"
)

// runApprovals lists or revokes "always allow" grants.
func runApprovals(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("approvals", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 || (rest[0] != "list" && rest[0] != "revoke") || (rest[0] == "revoke") != (len(rest) == 2) || len(rest) > 2 {
		return usagef("usage: deckhand approvals list [--json] | deckhand approvals revoke ID")
	}
	db, err := e.openLog(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	if rest[0] == "revoke" {
		g, err := db.RevokeGrant(ctx, rest[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "Revoked: %s is asked again from now on.\n", g.Tool)
		return nil
	}
	grants, err := db.Grants(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		type grantJSON struct {
			ID        string    `json:"id"`
			Tool      string    `json:"tool"`
			Scope     string    `json:"scope"`
			By        string    `json:"granted_by"`
			At        time.Time `json:"granted_at"`
			SessionID string    `json:"session,omitempty"`
			// Signed is false for a row Deckhand did not write: it is
			// ignored.
			Signed bool `json:"written_by_deckhand"`
		}
		out := []grantJSON{}
		for _, g := range grants {
			out = append(out, grantJSON{g.ID, g.Tool, g.Scope, g.By, g.Time, g.SessionID, !g.Foreign})
		}
		return writeJSON(e.stdout, out)
	}
	if len(grants) == 0 {
		fmt.Fprintln(e.stdout, "No \"always allow\" grants.")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTOOL\tSCOPE\tGRANTED BY\tWHEN\t")
	foreign := 0
	for _, g := range grants {
		note := ""
		if g.Foreign {
			note = "not written by Deckhand: ignored"
			foreign++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", g.ID, g.Tool, g.Scope, g.By, g.Time.Local().Format("2006-01-02 15:04"), note)
	}
	tw.Flush()
	if foreign > 0 {
		fmt.Fprintf(e.stderr, "warning: %d of these rows were not written by Deckhand (no valid signature): they are ignored; deckhand approvals revoke ID removes one\n", foreign)
	}
	return nil
}
