package procstat

import (
	"errors"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		line string
		want Stat
		err  bool
	}{
		{name: "plain", line: "42 (sleep) S 1 42 42 0 -1\n", want: Stat{PID: 42, Comm: "sleep", Fields: []string{"S", "1", "42", "42", "0", "-1"}}},
		{name: "a name with spaces and parentheses", line: "7 (a) b (c)) Z 3 5\n", want: Stat{PID: 7, Comm: "a) b (c)", Fields: []string{"Z", "3", "5"}}},
		{name: "nothing after the name", line: "8 (x)", want: Stat{PID: 8, Comm: "x"}},
		{name: "no name", line: "9 S 1 2\n", err: true},
		{name: "no pid", line: "(x) S 1 2\n", err: true},
		{name: "parentheses the wrong way", line: "1 )x( S\n", err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse([]byte(tc.line))
			if (err != nil) != tc.err {
				t.Fatalf("Parse(%q) error = %v, want error %v", tc.line, err, tc.err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tc.line, diff)
			}
		})
	}
}

// This process's own stat reads back with its pid, its parent and a
// running state, and the fields past the end read as empty.
func TestReadSelf(t *testing.T) {
	st, err := Read(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if st.PID != os.Getpid() || st.Int(PPID) != int64(os.Getppid()) || st.Field(State) != "R" || st.Field(StartTime) == "" {
		t.Errorf("Read(self) = %+v", st)
	}
	if st.Field(1000) != "" || st.Int(-1) != 0 {
		t.Errorf("a field past the end is %q", st.Field(1000))
	}
	if _, err := Read(-1); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Read(-1) error = %v, want not found", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"42 (sleep) S 1 42 42 0 -1\n", "7 (a) b (c)) Z 3 5", "1 )x(", "", "(", ")"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		st, err := Parse(line)
		if err != nil {
			return
		}
		for _, field := range st.Fields {
			if field == "" {
				t.Fatalf("Parse(%q) has an empty field: %q", line, st.Fields)
			}
		}
		if len(st.Comm) > len(line) {
			t.Fatalf("Parse(%q) name %q is longer than the line", line, st.Comm)
		}
	})
}
