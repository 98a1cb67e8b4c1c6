package tools

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestVisibilityOf(t *testing.T) {
	tests := []struct {
		name string
		meta sdk.Meta
		want Visibility
	}{
		{name: "no meta", want: Visibility{}},
		{name: "a view, no visibility", meta: sdk.Meta{"ui": map[string]any{"resourceUri": "ui://v"}}, want: Visibility{}},
		{name: "both", meta: sdk.Meta{"ui": map[string]any{"visibility": []any{"model", "app"}}}, want: Visibility{}},
		{name: "app only", meta: sdk.Meta{"ui": map[string]any{"visibility": []any{"app"}}}, want: Visibility{HiddenFromModel: true}},
		{name: "model only", meta: sdk.Meta{"ui": map[string]any{"visibility": []any{"model"}}}, want: Visibility{HiddenFromApps: true}},
		{name: "app only, made in Go", meta: sdk.Meta{"ui": map[string]any{"visibility": []string{"app"}}}, want: Visibility{HiddenFromModel: true}},
		{name: "a string", meta: sdk.Meta{"ui": map[string]any{"visibility": "app"}}, want: Visibility{HiddenFromModel: true}},
		{name: "empty list: neither", meta: sdk.Meta{"ui": map[string]any{"visibility": []any{}}}, want: Visibility{HiddenFromModel: true, HiddenFromApps: true}},
		{name: "unknown values ignored", meta: sdk.Meta{"ui": map[string]any{"visibility": []any{"app", "Model", 3}}}, want: Visibility{HiddenFromModel: true}},
		{name: "not a list", meta: sdk.Meta{"ui": map[string]any{"visibility": 7}}, want: Visibility{}},
		{name: "ui not an object", meta: sdk.Meta{"ui": "x"}, want: Visibility{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := VisibilityOf(&sdk.Tool{Name: "t", Meta: tc.meta}); got != tc.want {
				t.Errorf("VisibilityOf(%v) = %+v, want %+v", tc.meta, got, tc.want)
			}
		})
	}
}
