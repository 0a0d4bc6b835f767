package mycli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// StateEnv is the environment variable naming the state file when --state is not given.
const StateEnv = "MYCLI_STATE"

// State is everything mycli knows: the content of the state file.
type State struct {
	Pods        []Pod        `json:"pods"`
	Services    []Service    `json:"services"`
	Deployments []Deployment `json:"deployments"`
	Nodes       []Node       `json:"nodes"`
}

// Pod is one pod.
type Pod struct {
	Name      string            `json:"name"`
	Namespace string            `json:"namespace"`
	Status    string            `json:"status"`
	Restarts  int               `json:"restarts"`
	Node      string            `json:"node"`
	Image     string            `json:"image"`
	Owner     string            `json:"owner,omitempty"` // the deployment that owns the pod
	Labels    map[string]string `json:"labels,omitempty"`
}

// Service is one service.
type Service struct {
	Name      string            `json:"name"`
	Namespace string            `json:"namespace"`
	Type      string            `json:"type"`
	ClusterIP string            `json:"clusterIP"`
	Ports     []int             `json:"ports"`
	Labels    map[string]string `json:"labels,omitempty"`
}

// Deployment is one deployment; its pods are the pods whose Owner is its name.
type Deployment struct {
	Name      string            `json:"name"`
	Namespace string            `json:"namespace"`
	Replicas  int               `json:"replicas"`
	Image     string            `json:"image"`
	Env       []string          `json:"env,omitempty"`
	Labels    map[string]string `json:"labels,omitempty"`
}

// Node is one node, with its (fixed) usage figures.
type Node struct {
	Name       string `json:"name"`
	CPUMilli   int    `json:"cpuMilli"`
	MemoryMiB  int    `json:"memoryMiB"`
	CPUPercent int    `json:"cpuPercent"`
	MemPercent int    `json:"memoryPercent"`
}

// SeedState returns the state mycli uses when the state file does not exist: a few pods in the
// namespaces default and kube-system, their services and deployments, and two nodes.
func SeedState() *State {
	return &State{
		Pods: []Pod{
			{Name: "web-7f9c4d-abc12", Namespace: "default", Status: "Running", Node: "node-1", Image: "nginx:1.25", Owner: "web", Labels: map[string]string{"app": "web", "tier": "frontend"}},
			{Name: "web-7f9c4d-def34", Namespace: "default", Status: "Running", Restarts: 1, Node: "node-2", Image: "nginx:1.25", Owner: "web", Labels: map[string]string{"app": "web", "tier": "frontend"}},
			{Name: "api-5d8b6c-xyz89", Namespace: "default", Status: "Running", Node: "node-1", Image: "example/api:2.3.0", Owner: "api", Labels: map[string]string{"app": "api", "tier": "backend"}},
			{Name: "db-0", Namespace: "default", Status: "Pending", Node: "", Image: "postgres:16", Labels: map[string]string{"app": "db", "tier": "backend"}},
			{Name: "coredns-6d4b75-k8m2p", Namespace: "kube-system", Status: "Running", Node: "node-1", Image: "coredns/coredns:1.11.1", Owner: "coredns", Labels: map[string]string{"k8s-app": "kube-dns"}},
			{Name: "coredns-6d4b75-q7r5t", Namespace: "kube-system", Status: "Running", Node: "node-2", Image: "coredns/coredns:1.11.1", Owner: "coredns", Labels: map[string]string{"k8s-app": "kube-dns"}},
			{Name: "kube-proxy-h2x9z", Namespace: "kube-system", Status: "Running", Restarts: 3, Node: "node-1", Image: "registry.k8s.io/kube-proxy:v1.30.0", Labels: map[string]string{"k8s-app": "kube-proxy"}},
		},
		Services: []Service{
			{Name: "kubernetes", Namespace: "default", Type: "ClusterIP", ClusterIP: "10.96.0.1", Ports: []int{443}},
			{Name: "web", Namespace: "default", Type: "LoadBalancer", ClusterIP: "10.96.12.7", Ports: []int{80, 443}, Labels: map[string]string{"app": "web"}},
			{Name: "api", Namespace: "default", Type: "ClusterIP", ClusterIP: "10.96.40.2", Ports: []int{8080}, Labels: map[string]string{"app": "api"}},
			{Name: "kube-dns", Namespace: "kube-system", Type: "ClusterIP", ClusterIP: "10.96.0.10", Ports: []int{53}, Labels: map[string]string{"k8s-app": "kube-dns"}},
		},
		Deployments: []Deployment{
			{Name: "web", Namespace: "default", Replicas: 2, Image: "nginx:1.25", Labels: map[string]string{"app": "web", "tier": "frontend"}},
			{Name: "api", Namespace: "default", Replicas: 1, Image: "example/api:2.3.0", Labels: map[string]string{"app": "api", "tier": "backend"}},
			{Name: "coredns", Namespace: "kube-system", Replicas: 2, Image: "coredns/coredns:1.11.1", Labels: map[string]string{"k8s-app": "kube-dns"}},
		},
		Nodes: []Node{
			{Name: "node-1", CPUMilli: 850, MemoryMiB: 3012, CPUPercent: 42, MemPercent: 61},
			{Name: "node-2", CPUMilli: 310, MemoryMiB: 1877, CPUPercent: 15, MemPercent: 38},
		},
	}
}

// LoadState reads the state file at path; a missing file yields [SeedState].
func LoadState(path string) (*State, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return SeedState(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("read state: %w", err)
	}
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("parse state %s: %w", path, err)
	}
	return &s, nil
}

// Save writes the state to path atomically: to a temporary file in the same directory, then
// renamed over path. Missing directories are created.
func (s *State) Save(path string) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	data = append(data, '\n')
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	f, err := os.CreateTemp(dir, ".state-*.json")
	if err != nil {
		return fmt.Errorf("save state: %w", err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("save state %s: %w", path, werr)
	}
	return nil
}

// statePath resolves the state file: --state, else $MYCLI_STATE, else the default under the
// user configuration directory.
func (a *app) resolveStatePath() (string, error) {
	if a.statePath != "" {
		return a.statePath, nil
	}
	if p := os.Getenv(StateEnv); p != "" {
		return p, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find state file (set --state or %s): %w", StateEnv, err)
	}
	return filepath.Join(dir, "mycli", "state.json"), nil
}

// load resolves and loads the state for one command.
func (a *app) load(cmd *cobra.Command) (*State, string, error) {
	path, err := a.resolveStatePath()
	if err != nil {
		return nil, "", err
	}
	s, err := LoadState(path)
	if err != nil {
		return nil, "", err
	}
	a.logger(cmd).Info("state loaded", "path", path, "pods", len(s.Pods))
	return s, path, nil
}

// save saves the state for one command.
func (a *app) save(cmd *cobra.Command, s *State, path string) error {
	if err := s.Save(path); err != nil {
		return err
	}
	a.logger(cmd).Info("state saved", "path", path)
	return nil
}

// pod returns the index of the pod name in namespace ns, or -1.
func (s *State) pod(ns, name string) int {
	return slices.IndexFunc(s.Pods, func(p Pod) bool { return p.Namespace == ns && p.Name == name })
}

// deployment returns the index of the deployment name in namespace ns, or -1.
func (s *State) deployment(ns, name string) int {
	return slices.IndexFunc(s.Deployments, func(d Deployment) bool { return d.Namespace == ns && d.Name == name })
}

// service returns the index of the service name in namespace ns, or -1.
func (s *State) service(ns, name string) int {
	return slices.IndexFunc(s.Services, func(v Service) bool { return v.Namespace == ns && v.Name == name })
}

// notFound is the error for a missing object.
func notFound(kind, ns, name string) error {
	return fmt.Errorf("%s %q not found in namespace %q", kind, name, ns)
}

// scaleTo makes deployment d have exactly d.Replicas pods: it keeps the oldest pods it owns and
// adds new ones named <deployment>-<n> with the smallest free n.
func (s *State) scaleTo(d Deployment) {
	kept := 0
	s.Pods = slices.DeleteFunc(s.Pods, func(p Pod) bool {
		if p.Namespace != d.Namespace || p.Owner != d.Name {
			return false
		}
		kept++
		return kept > d.Replicas
	})
	for n := 1; kept < d.Replicas; n++ {
		name := fmt.Sprintf("%s-%d", d.Name, n)
		if s.pod(d.Namespace, name) >= 0 {
			continue
		}
		labels := make(map[string]string, len(d.Labels))
		for k, v := range d.Labels {
			labels[k] = v
		}
		s.Pods = append(s.Pods, Pod{Name: name, Namespace: d.Namespace, Status: "Running", Node: "node-1", Image: d.Image, Owner: d.Name, Labels: labels})
		kept++
	}
}

// parseKV parses "KEY=VALUE".
func parseKV(s string) (string, string, error) {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return "", "", fmt.Errorf("invalid %q: want KEY=VALUE", s)
	}
	return k, v, nil
}
