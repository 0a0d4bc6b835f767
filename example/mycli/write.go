package mycli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// overridesSchema is the jsonschema annotation on `run --overrides`: an object, not a string.
const overridesSchema = `{"type":"object","properties":{"image":{"type":"string"},"replicas":{"type":"integer","minimum":0}},"required":["image"],"additionalProperties":false}`

// addDryRun adds the kubectl-style --dry-run flag: a string whose value is optional
// (NoOptDefVal "client"), so `--dry-run` alone means client and `--dry-run=server` is explicit.
func addDryRun(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "dry-run", "none", `"none", "client" or "server"; --dry-run alone means "client": print what would change, change nothing`)
	cmd.Flags().Lookup("dry-run").NoOptDefVal = "client"
}

// checkDryRun validates a --dry-run value and reports whether it asks for a dry run.
func checkDryRun(v string) (bool, error) {
	switch v {
	case "none", "":
		return false, nil
	case "client", "server":
		return true, nil
	}
	return false, fmt.Errorf("invalid --dry-run %q: must be none, client or server", v)
}

// dryRunSuffix is appended to messages of dry runs.
func dryRunSuffix(dry bool, mode string) string {
	if dry {
		return " (dry run: " + mode + ")"
	}
	return ""
}

// newDeleteCmd is the `delete` group.
func newDeleteCmd(a *app) *cobra.Command {
	del := &cobra.Command{
		Use:     "delete",
		Short:   "Delete resources",
		GroupID: GroupBasic,
	}
	var (
		q       podQuery
		all     bool
		dryRun  string
		timeout time.Duration
	)
	pod := &cobra.Command{
		Use:     "pod [NAME]",
		Aliases: []string{"pods", "po"},
		Short:   "Delete a pod by name, or the pods matching --selector, or --all pods",
		Example: `  mycli delete pod web-7f9c4d-abc12
  mycli delete pod -l app=web --dry-run
  mycli delete pod --all -n kube-system`,
		Args:        cobra.MaximumNArgs(1),
		Annotations: annotations(annDestructive, "true", annTitle, "Delete pods"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dry, err := checkDryRun(dryRun)
			if err != nil {
				return err
			}
			if timeout < 0 {
				return fmt.Errorf("invalid --timeout %s: must not be negative", timeout)
			}
			switch {
			case len(args) == 1 && (all || q.selector != ""):
				return errors.New("a pod NAME cannot be combined with --all or --selector")
			case len(args) == 0 && !all && q.selector == "":
				return errors.New("nothing to delete: give a pod NAME, --selector or --all")
			}
			s, path, err := a.load(cmd)
			if err != nil {
				return err
			}
			var victims []Pod
			if len(args) == 1 {
				i := s.pod(a.namespace, args[0])
				if i < 0 {
					return notFound("pod", a.namespace, args[0])
				}
				victims = []Pod{s.Pods[i]}
			} else if victims, err = a.selectPods(s, q); err != nil {
				return err
			}
			if len(victims) == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "No resources found in %s namespace.\n", a.namespace)
				return nil
			}
			for _, v := range victims {
				s.Pods = deletePod(s.Pods, v)
				if a.output == "name" {
					fmt.Fprintf(cmd.OutOrStdout(), "pod/%s\n", v.Name)
				} else {
					fmt.Fprintf(cmd.OutOrStdout(), "pod %q deleted%s\n", v.Name, dryRunSuffix(dry, dryRun))
				}
			}
			if dry {
				return nil
			}
			return a.save(cmd, s, path)
		},
	}
	f := pod.Flags()
	f.BoolVar(&all, "all", false, "delete every pod of the namespace")
	f.StringVarP(&q.selector, "selector", "l", "", "delete the pods matching this label selector, e.g. app=web")
	f.DurationVar(&timeout, "timeout", 30*time.Second, "how long to wait for the deletion (0: wait forever)")
	addDryRun(pod, &dryRun)
	pod.MarkFlagsMutuallyExclusive("all", "selector")
	del.AddCommand(pod)
	return del
}

// deletePod returns pods without p.
func deletePod(pods []Pod, p Pod) []Pod {
	out := pods[:0]
	for _, x := range pods {
		if x.Namespace != p.Namespace || x.Name != p.Name {
			out = append(out, x)
		}
	}
	return out
}

// manifest is one object of an `apply` file.
type manifest struct {
	APIVersion string          `json:"apiVersion,omitempty"`
	Kind       string          `json:"kind"`
	Metadata   metadata        `json:"metadata"`
	Spec       json.RawMessage `json:"spec,omitempty"`
	Items      []manifest      `json:"items,omitempty"`
}

type metadata struct {
	Name      string            `json:"name"`
	Namespace string            `json:"namespace,omitempty"`
	Labels    map[string]string `json:"labels,omitempty"`
}

// decodeStrict decodes raw into v, rejecting unknown fields; empty raw leaves v alone.
func decodeStrict(raw []byte, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// parseManifests reads a JSON object, an array of objects, or a List with items.
func parseManifests(data []byte) ([]manifest, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("manifest is empty")
	}
	var ms []manifest
	if trimmed[0] == '[' {
		if err := json.Unmarshal(trimmed, &ms); err != nil {
			return nil, fmt.Errorf("manifest must be JSON: %w", err)
		}
	} else {
		var m manifest
		if err := json.Unmarshal(trimmed, &m); err != nil {
			return nil, fmt.Errorf("manifest must be JSON: %w", err)
		}
		ms = []manifest{m}
	}
	var out []manifest
	for _, m := range ms {
		if m.Kind == "List" {
			out = append(out, m.Items...)
		} else {
			out = append(out, m)
		}
	}
	return out, nil
}

// upsert applies one manifest to s and returns "kind/name" and what happened.
func upsert(s *State, m manifest) (string, string, error) {
	name, ns := m.Metadata.Name, m.Metadata.Namespace
	if name == "" {
		return "", "", fmt.Errorf("%s without metadata.name", m.Kind)
	}
	switch strings.ToLower(m.Kind) {
	case "pod":
		var spec struct {
			Image    string `json:"image"`
			NodeName string `json:"nodeName"`
		}
		if err := decodeStrict(m.Spec, &spec); err != nil {
			return "", "", fmt.Errorf("pod %s: spec: %w", name, err)
		}
		p := Pod{Name: name, Namespace: ns, Status: "Running", Node: spec.NodeName, Image: spec.Image, Labels: m.Metadata.Labels}
		if p.Node == "" {
			p.Node = "node-1"
		}
		if i := s.pod(ns, name); i >= 0 {
			p.Restarts, p.Owner, p.Status = s.Pods[i].Restarts, s.Pods[i].Owner, s.Pods[i].Status
			return "pod/" + name, changed(&s.Pods[i], p), nil
		}
		s.Pods = append(s.Pods, p)
		return "pod/" + name, "created", nil
	case "service":
		var spec struct {
			Type      string `json:"type"`
			ClusterIP string `json:"clusterIP"`
			Ports     []int  `json:"ports"`
		}
		if err := decodeStrict(m.Spec, &spec); err != nil {
			return "", "", fmt.Errorf("service %s: spec: %w", name, err)
		}
		v := Service{Name: name, Namespace: ns, Type: spec.Type, ClusterIP: spec.ClusterIP, Ports: spec.Ports, Labels: m.Metadata.Labels}
		if v.Type == "" {
			v.Type = "ClusterIP"
		}
		if i := s.service(ns, name); i >= 0 {
			return "service/" + name, changed(&s.Services[i], v), nil
		}
		s.Services = append(s.Services, v)
		return "service/" + name, "created", nil
	case "deployment":
		var spec struct {
			Replicas *int     `json:"replicas"`
			Image    string   `json:"image"`
			Env      []string `json:"env"`
		}
		if err := decodeStrict(m.Spec, &spec); err != nil {
			return "", "", fmt.Errorf("deployment %s: spec: %w", name, err)
		}
		d := Deployment{Name: name, Namespace: ns, Replicas: 1, Image: spec.Image, Env: spec.Env, Labels: m.Metadata.Labels}
		if spec.Replicas != nil {
			if *spec.Replicas < 0 {
				return "", "", fmt.Errorf("deployment %s: replicas %d is negative", name, *spec.Replicas)
			}
			d.Replicas = *spec.Replicas
		}
		result := "created"
		if i := s.deployment(ns, name); i >= 0 {
			result = changed(&s.Deployments[i], d)
		} else {
			s.Deployments = append(s.Deployments, d)
		}
		s.scaleTo(d)
		return "deployment/" + name, result, nil
	}
	return "", "", fmt.Errorf("unknown kind %q (want Pod, Service or Deployment)", m.Kind)
}

// changed stores v in *dst and reports "configured", or "unchanged" when they are equal.
func changed[T any](dst *T, v T) string {
	old, _ := json.Marshal(*dst)
	now, _ := json.Marshal(v)
	*dst = v
	if bytes.Equal(old, now) {
		return "unchanged"
	}
	return "configured"
}

func newApplyCmd(a *app) *cobra.Command {
	var (
		filename string
		labels   map[string]string
		dryRun   string
	)
	cmd := &cobra.Command{
		Use:   "apply -f FILE",
		Short: "Create or update resources from a JSON manifest",
		Long: `Create or update the objects of a JSON manifest: one object, an array of objects, or
{"kind":"List","items":[...]}. Each object is
  {"kind":"Pod|Service|Deployment","metadata":{"name":...,"namespace":...,"labels":{...}},"spec":{...}}
with spec {"image","nodeName"} for pods, {"type","clusterIP","ports":[80]} for services and
{"replicas","image","env":["K=V"]} for deployments. FILE "-" reads stdin.`,
		Example: `  mycli apply -f web.json
  mycli apply -f web.json --labels team=blue,env=prod --dry-run`,
		Args:    cobra.NoArgs,
		GroupID: GroupBasic,
		RunE: func(cmd *cobra.Command, args []string) error {
			dry, err := checkDryRun(dryRun)
			if err != nil {
				return err
			}
			var data []byte
			if filename == "-" {
				data, err = io.ReadAll(cmd.InOrStdin())
			} else {
				data, err = os.ReadFile(filename)
			}
			if err != nil {
				return fmt.Errorf("read manifest: %w", err)
			}
			ms, err := parseManifests(data)
			if err != nil {
				return fmt.Errorf("%s: %w", filename, err)
			}
			s, path, err := a.load(cmd)
			if err != nil {
				return err
			}
			for _, m := range ms {
				if m.Metadata.Namespace == "" {
					m.Metadata.Namespace = a.namespace
				}
				if len(labels) > 0 {
					merged := maps.Clone(m.Metadata.Labels)
					if merged == nil {
						merged = map[string]string{}
					}
					maps.Copy(merged, labels)
					m.Metadata.Labels = merged
				}
				ref, result, err := upsert(s, m)
				if err != nil {
					return fmt.Errorf("%s: %w", filename, err)
				}
				if a.output == "name" {
					fmt.Fprintln(cmd.OutOrStdout(), ref)
				} else {
					fmt.Fprintf(cmd.OutOrStdout(), "%s %s%s\n", ref, result, dryRunSuffix(dry, dryRun))
				}
			}
			if dry {
				return nil
			}
			return a.save(cmd, s, path)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&filename, "filename", "f", "", `JSON manifest to apply ("-" for stdin)`)
	mustFlag(cmd.MarkFlagRequired("filename"))
	f.StringToStringVar(&labels, "labels", nil, "labels added to every object, e.g. team=blue,env=prod")
	addDryRun(cmd, &dryRun)
	return cmd
}

func newRunCmd(a *app) *cobra.Command {
	var (
		image     string
		overrides string
		replicas  int
		env       []string
		labels    map[string]string
		dryRun    string
	)
	cmd := &cobra.Command{
		Use:   "run NAME (--image IMAGE | --overrides JSON)",
		Short: "Create a deployment running an image",
		Long: `Create the deployment NAME and its pods. The image comes from --image or from
--overrides, a JSON object {"image": ..., "replicas": ...} whose fields win over the flags.`,
		Example: `  mycli run cache --image redis:7 --replicas 2 --env MODE=lru --env SIZE=64m
  mycli run cache --overrides '{"image":"redis:7","replicas":3}'`,
		Args:    cobra.ExactArgs(1),
		GroupID: GroupBasic,
		RunE: func(cmd *cobra.Command, args []string) error {
			dry, err := checkDryRun(dryRun)
			if err != nil {
				return err
			}
			name := args[0]
			d := Deployment{Name: name, Namespace: a.namespace, Replicas: replicas, Image: image, Labels: map[string]string{"run": name}}
			maps.Copy(d.Labels, labels)
			for _, e := range env {
				if _, _, err := parseKV(e); err != nil {
					return fmt.Errorf("--env: %w", err)
				}
			}
			d.Env = env
			if overrides != "" {
				var o struct {
					Image    *string `json:"image"`
					Replicas *int    `json:"replicas"`
				}
				if err := decodeStrict([]byte(overrides), &o); err != nil {
					return fmt.Errorf("invalid --overrides: %w", err)
				}
				if o.Image == nil {
					return errors.New("invalid --overrides: image is required")
				}
				d.Image = *o.Image
				if o.Replicas != nil {
					d.Replicas = *o.Replicas
				}
			}
			if d.Image == "" {
				return errors.New("the image must not be empty")
			}
			if d.Replicas < 0 {
				return fmt.Errorf("replicas %d is negative", d.Replicas)
			}
			s, path, err := a.load(cmd)
			if err != nil {
				return err
			}
			if s.deployment(d.Namespace, name) >= 0 {
				return fmt.Errorf("deployment %q already exists in namespace %q", name, d.Namespace)
			}
			s.Deployments = append(s.Deployments, d)
			s.scaleTo(d)
			fmt.Fprintf(cmd.OutOrStdout(), "deployment/%s created%s\n", name, dryRunSuffix(dry, dryRun))
			if dry {
				return nil
			}
			return a.save(cmd, s, path)
		},
	}
	f := cmd.Flags()
	f.StringVar(&image, "image", "", "container image to run")
	f.StringVar(&overrides, "overrides", "", `JSON object overriding the generated deployment: {"image": string, "replicas": integer >= 0}`)
	mustFlag(f.SetAnnotation("overrides", "jsonschema", []string{overridesSchema}))
	f.IntVar(&replicas, "replicas", 1, "number of pods")
	f.StringArrayVar(&env, "env", nil, "environment variable KEY=VALUE; repeat for more (values may contain commas)")
	f.StringToStringVar(&labels, "labels", nil, "labels of the deployment and its pods, e.g. team=blue,env=prod")
	addDryRun(cmd, &dryRun)
	cmd.MarkFlagsOneRequired("image", "overrides")
	return cmd
}

// newScaleCmd is the `scale` group.
func newScaleCmd(a *app) *cobra.Command {
	scale := &cobra.Command{
		Use:     "scale",
		Short:   "Set the number of replicas of a resource",
		GroupID: GroupBasic,
	}
	var replicas, current int
	dep := &cobra.Command{
		Use:     "deployment NAME --replicas N",
		Aliases: []string{"deployments", "deploy"},
		Short:   "Set the number of pods of a deployment",
		Example: `  mycli scale deployment web --replicas 3
  mycli scale deployment web --replicas 1 --current-replicas 3`,
		Args:        cobra.ExactArgs(1),
		Annotations: annotations(annIdempotent, "true", annTitle, "Scale a deployment"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if replicas < 0 {
				return fmt.Errorf("invalid --replicas %d: must not be negative", replicas)
			}
			s, path, err := a.load(cmd)
			if err != nil {
				return err
			}
			i := s.deployment(a.namespace, args[0])
			if i < 0 {
				return notFound("deployment", a.namespace, args[0])
			}
			d := &s.Deployments[i]
			if current >= 0 && d.Replicas != current {
				return fmt.Errorf("expected %d current replicas of deployment %q, found %d", current, d.Name, d.Replicas)
			}
			d.Replicas = replicas
			s.scaleTo(*d)
			fmt.Fprintf(cmd.OutOrStdout(), "deployment/%s scaled to %d\n", d.Name, replicas)
			return a.save(cmd, s, path)
		},
	}
	dep.Flags().IntVar(&replicas, "replicas", 0, "the new number of pods")
	mustFlag(dep.MarkFlagRequired("replicas"))
	dep.Flags().IntVar(&current, "current-replicas", -1, "precondition: the current number of replicas (-1: any)")
	scale.AddCommand(dep)
	return scale
}

func newLabelCmd(a *app) *cobra.Command {
	var overwrite bool
	cmd := &cobra.Command{
		Use:   "label POD [KEY=VALUE | KEY-]",
		Short: "Show, set or remove a label of a pod",
		Example: `  mycli label db-0
  mycli label db-0 env=prod
  mycli label db-0 env=staging --overwrite
  mycli label db-0 env-`,
		Args:    cobra.RangeArgs(1, 2),
		GroupID: GroupBasic,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, path, err := a.load(cmd)
			if err != nil {
				return err
			}
			i := s.pod(a.namespace, args[0])
			if i < 0 {
				return notFound("pod", a.namespace, args[0])
			}
			p := &s.Pods[i]
			if len(args) == 1 {
				return a.print(cmd, printer{
					value: orEmptyMap(p.Labels),
					names: []string{"pod/" + p.Name},
					table: func(w io.Writer) { fmt.Fprintln(w, labelString(p.Labels)) },
				})
			}
			if key, ok := strings.CutSuffix(args[1], "-"); ok && !strings.Contains(args[1], "=") {
				if _, has := p.Labels[key]; !has {
					return fmt.Errorf("pod %q has no label %q", p.Name, key)
				}
				delete(p.Labels, key)
				fmt.Fprintf(cmd.OutOrStdout(), "pod/%s unlabeled\n", p.Name)
				return a.save(cmd, s, path)
			}
			k, v, err := parseKV(args[1])
			if err != nil {
				return err
			}
			if old, has := p.Labels[k]; has && old != v && !overwrite {
				return fmt.Errorf("pod %q already has label %s=%s; use --overwrite to change it", p.Name, k, old)
			}
			if p.Labels == nil {
				p.Labels = map[string]string{}
			}
			p.Labels[k] = v
			fmt.Fprintf(cmd.OutOrStdout(), "pod/%s labeled\n", p.Name)
			return a.save(cmd, s, path)
		},
	}
	cmd.Flags().BoolVar(&overwrite, "overwrite", false, "allow changing the value of an existing label")
	return cmd
}

// orEmptyMap turns a nil map into an empty one so that json prints {} rather than null.
func orEmptyMap(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
