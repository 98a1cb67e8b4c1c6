package settings

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"deckhand/config"
)

// TestPolicyEdits: only what changed is written, an emptied entry removes
// its key, and a folder that is not a full path is refused, naming it.
func TestPolicyEdits(t *testing.T) {
	t.Parallel()
	was := config.Policy{Workspace: "~/work", FS: config.PolicyFS{ReadRoots: []string{"/docs"}}}
	for _, tc := range []struct {
		name                   string
		workspace, read, write string
		exec                   bool
		want                   []config.Edit
		err                    string
	}{
		{name: "unchanged", workspace: " ~/work ", read: "/docs\n\n"},
		{name: "workspace emptied", read: "/docs",
			want: []config.Edit{{Table: "policy", Key: "workspace", Value: nil}}},
		{name: "roots and exec", workspace: "~/work", read: "", write: "/tmp/out\n~/src", exec: true,
			want: []config.Edit{
				{Table: "policy.fs", Key: "read_roots", Value: nil},
				{Table: "policy.fs", Key: "write_roots", Value: []string{"/tmp/out", "~/src"}},
				{Table: "policy", Key: "allow_exec", Value: true},
			}},
		{name: "relative workspace", workspace: "work", read: "/docs", err: `workspace folder: "work" is not a full path`},
		{name: "relative root", workspace: "~/work", read: "/docs\nsrc", err: `read roots: "src" is not a full path`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := policyEdits(was, tc.workspace, tc.read, tc.write, tc.exec)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("edits (-want +got):\n%s", diff)
			}
		})
	}
}
