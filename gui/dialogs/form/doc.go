// Package form is the form of a server's question (MCP elicitation), built
// from the fields of its schema (mcp.Form): an entry for text and numbers,
// a check box for yes or no, a select or a group of check boxes for a few
// options, a list with a filter for many. The servers panel's Run builds a
// tool's input form with it too (through dialogs.Form), so that a field
// reads, checks and names a wrong value as a question's does. What the
// server says (titles, descriptions, options) is cleaned and bounded.
//
// Files:
//   - form.go: the Form and its Fields (required ones first), each
//     field's widget, its hint and default, and Collect, which reads the
//     answers and checks them against the schema.
//   - fields.go: the fields as the keyboard and the wheel meet them in a
//     form that scrolls: a field's focus scrolls the form to it and rings
//     it, the wheel anywhere over the form moves it (Page, UnderWheel),
//     Escape goes to the dialog; the long list of options, filtered as
//     the person types.
//
// State: a Form holds its fields; the dialog it is shown in (package
// dialogs) owns the scroll it is in (ScrollIn) and what Enter and
// Escape do (the submit and escape functions handed to New).
//
// Concurrency: everything here belongs to the UI goroutine.
package form
