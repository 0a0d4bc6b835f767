package mycli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

// listOf is the shape of a list in json and yaml output.
type listOf[T any] struct {
	Kind  string `json:"kind"`
	Items []T    `json:"items"`
}

// printer renders one result in the format chosen by --output.
type printer struct {
	// value is printed by json and yaml.
	value any
	// names are printed one per line by name (e.g. "pod/web-1").
	names []string
	// table writes the table form; cells are separated by tabs.
	table func(w io.Writer)
}

// print writes p to the command's stdout in the --output format.
func (a *app) print(cmd *cobra.Command, p printer) error {
	w := cmd.OutOrStdout()
	switch a.output {
	case "json":
		data, err := json.MarshalIndent(p.value, "", "  ")
		if err != nil {
			return fmt.Errorf("encode json output: %w", err)
		}
		_, err = w.Write(append(data, '\n'))
		return err
	case "yaml":
		data, err := toYAML(p.value)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	case "name":
		_, err := io.WriteString(w, strings.Join(p.names, "\n")+"\n")
		return err
	default:
		tw := tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)
		p.table(tw)
		return tw.Flush()
	}
}

// toYAML renders v (anything encoding/json accepts) as block-style YAML.
func toYAML(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode yaml output: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, fmt.Errorf("encode yaml output: %w", err)
	}
	var b bytes.Buffer
	if s, ok := yamlInline(generic); ok {
		b.WriteString(s + "\n")
	} else {
		yamlBlock(&b, generic, 0)
	}
	return b.Bytes(), nil
}

// yamlInline renders scalars and empty containers on one line; ok is false for anything else.
func yamlInline(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "null", true
	case bool:
		if v {
			return "true", true
		}
		return "false", true
	case json.Number:
		return v.String(), true
	case string:
		return yamlString(v), true
	case map[string]any:
		return "{}", len(v) == 0
	case []any:
		return "[]", len(v) == 0
	}
	return fmt.Sprint(v), true
}

// yamlBlock writes a non-empty map or list, each line indented by ind spaces.
func yamlBlock(b *bytes.Buffer, v any, ind int) {
	pad := strings.Repeat(" ", ind)
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b.WriteString(pad + yamlString(k) + ":")
			if s, ok := yamlInline(v[k]); ok {
				b.WriteString(" " + s + "\n")
				continue
			}
			b.WriteString("\n")
			yamlBlock(b, v[k], ind+2)
		}
	case []any:
		for _, item := range v {
			if s, ok := yamlInline(item); ok {
				b.WriteString(pad + "- " + s + "\n")
				continue
			}
			var child bytes.Buffer
			yamlBlock(&child, item, ind+2)
			b.WriteString(pad + "- ")
			b.Write(child.Bytes()[ind+2:])
		}
	}
}

// yamlString writes s plain when that is unambiguous, else as a double-quoted (JSON) string,
// which YAML accepts.
func yamlString(s string) string {
	plain := s != ""
	for i, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || r == '/' ||
			i > 0 && (r >= '0' && r <= '9' || r == '.' || r == '-')
		if !ok {
			plain = false
			break
		}
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "y", "n":
		plain = false
	}
	if plain {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// labelString renders labels as "k=v,k=v" sorted by key, or "<none>".
func labelString(labels map[string]string) string {
	if len(labels) == 0 {
		return "<none>"
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + labels[k]
	}
	return strings.Join(parts, ",")
}
