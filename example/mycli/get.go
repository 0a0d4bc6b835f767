package mycli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// newGetCmd is the `get` group: it has subcommands and no Run of its own.
func newGetCmd(a *app) *cobra.Command {
	get := &cobra.Command{
		Use:     "get",
		Short:   "Display one or many resources",
		GroupID: GroupBasic,
	}
	get.AddCommand(newGetPodsCmd(a), newGetServicesCmd(a), newGetDeploymentsCmd(a))
	return get
}

// podQuery is what selects pods in `get pods` and `delete pod`.
type podQuery struct {
	allNamespaces bool
	selector      string
	fieldSelector string
}

// selectPods returns the pods in the namespace (all of them with allNamespaces) that match.
func (a *app) selectPods(s *State, q podQuery) ([]Pod, error) {
	labels, err := parseSelector(q.selector)
	if err != nil {
		return nil, err
	}
	fields, err := parseFieldSelector(q.fieldSelector)
	if err != nil {
		return nil, err
	}
	var out []Pod
	for _, p := range s.Pods {
		if !q.allNamespaces && p.Namespace != a.namespace {
			continue
		}
		if matches(labels, p.Labels) && matches(fields, podFields(p)) {
			out = append(out, p)
		}
	}
	return out, nil
}

func newGetPodsCmd(a *app) *cobra.Command {
	var (
		q            podQuery
		labelColumns []string
		headers      bool
		limit        uint
		showAll      bool
	)
	cmd := &cobra.Command{
		Use:     "pods [NAME]",
		Aliases: []string{"pod", "po"},
		Short:   "List pods, or show one pod",
		Long: `List the pods of the namespace (or of all namespaces with -A), filtered by label
and field selectors; with NAME, show that one pod.`,
		Example: `  mycli get pods
  mycli get pods -A -l app=web -L tier
  mycli get pods web-7f9c4d-abc12 -o json`,
		Args:        cobra.MaximumNArgs(1),
		Annotations: readOnly(annTitle, "List pods", annTags, "k8s, read only"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, _, err := a.load(cmd)
			if err != nil {
				return err
			}
			if len(args) == 1 {
				i := s.pod(a.namespace, args[0])
				if i < 0 {
					return notFound("pod", a.namespace, args[0])
				}
				p := s.Pods[i]
				return a.print(cmd, printer{
					value: p,
					names: []string{"pod/" + p.Name},
					table: func(w io.Writer) { podTable(w, []Pod{p}, false, headers, labelColumns) },
				})
			}
			pods, err := a.selectPods(s, q)
			if err != nil {
				return err
			}
			if limit > 0 && uint(len(pods)) > limit {
				pods = pods[:limit]
			}
			names := make([]string, len(pods))
			for i, p := range pods {
				names[i] = "pod/" + p.Name
			}
			if len(pods) == 0 && a.output == "table" {
				fmt.Fprintf(cmd.ErrOrStderr(), "No resources found in %s namespace.\n", a.namespace)
				return nil
			}
			return a.print(cmd, printer{
				value: listOf[Pod]{Kind: "PodList", Items: orEmpty(pods)},
				names: names,
				table: func(w io.Writer) { podTable(w, pods, q.allNamespaces, headers, labelColumns) },
			})
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&q.allNamespaces, "all-namespaces", "A", false, "list the pods of every namespace")
	f.StringVarP(&q.selector, "selector", "l", "", "label selector, e.g. app=web,tier!=backend")
	f.StringVar(&q.fieldSelector, "field-selector", "", "field selector, e.g. status.phase=Running,spec.nodeName=node-1")
	f.StringSliceVarP(&labelColumns, "label-columns", "L", nil, "labels to show as extra columns (comma-separated or repeated)")
	f.BoolVar(&headers, "headers", true, "print the table header line (--headers=false to omit)")
	f.UintVar(&limit, "limit", 0, "print at most this many pods (0: no limit)")
	f.BoolVar(&showAll, "show-all", false, "also show terminated pods")
	mustFlag(f.MarkDeprecated("show-all", "it has no effect: all pods are always shown"))
	return cmd
}

// podTable writes pods as a table.
func podTable(w io.Writer, pods []Pod, withNamespace, headers bool, labelColumns []string) {
	if headers {
		var h []string
		if withNamespace {
			h = append(h, "NAMESPACE")
		}
		h = append(h, "NAME", "STATUS", "RESTARTS", "NODE")
		for _, l := range labelColumns {
			h = append(h, strings.ToUpper(l))
		}
		fmt.Fprintln(w, strings.Join(h, "\t"))
	}
	for _, p := range pods {
		var row []string
		if withNamespace {
			row = append(row, p.Namespace)
		}
		node := p.Node
		if node == "" {
			node = "<none>"
		}
		row = append(row, p.Name, p.Status, fmt.Sprint(p.Restarts), node)
		for _, l := range labelColumns {
			row = append(row, p.Labels[l])
		}
		fmt.Fprintln(w, strings.Join(row, "\t"))
	}
}

func newGetServicesCmd(a *app) *cobra.Command {
	var (
		allNamespaces bool
		headers       bool
	)
	cmd := &cobra.Command{
		Use:         "services",
		Aliases:     []string{"service", "svc"},
		Short:       "List services",
		Args:        cobra.NoArgs,
		Annotations: readOnly(annTitle, "List services"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, _, err := a.load(cmd)
			if err != nil {
				return err
			}
			var svcs []Service
			for _, v := range s.Services {
				if allNamespaces || v.Namespace == a.namespace {
					svcs = append(svcs, v)
				}
			}
			names := make([]string, len(svcs))
			for i, v := range svcs {
				names[i] = "service/" + v.Name
			}
			return a.print(cmd, printer{
				value: listOf[Service]{Kind: "ServiceList", Items: orEmpty(svcs)},
				names: names,
				table: func(w io.Writer) {
					if headers {
						fmt.Fprintln(w, "NAMESPACE\tNAME\tTYPE\tCLUSTER-IP\tPORTS")
					}
					for _, v := range svcs {
						ports := make([]string, len(v.Ports))
						for i, p := range v.Ports {
							ports[i] = fmt.Sprintf("%d/TCP", p)
						}
						fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", v.Namespace, v.Name, v.Type, v.ClusterIP, strings.Join(ports, ","))
					}
				},
			})
		},
	}
	cmd.Flags().BoolVarP(&allNamespaces, "all-namespaces", "A", false, "list the services of every namespace")
	cmd.Flags().BoolVar(&headers, "headers", true, "print the table header line (--headers=false to omit)")
	return cmd
}

func newGetDeploymentsCmd(a *app) *cobra.Command {
	var allNamespaces bool
	cmd := &cobra.Command{
		Use:         "deployments",
		Aliases:     []string{"deployment", "deploy"},
		Short:       "List deployments",
		Args:        cobra.NoArgs,
		Annotations: readOnly(),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, _, err := a.load(cmd)
			if err != nil {
				return err
			}
			var deps []Deployment
			for _, d := range s.Deployments {
				if allNamespaces || d.Namespace == a.namespace {
					deps = append(deps, d)
				}
			}
			names := make([]string, len(deps))
			for i, d := range deps {
				names[i] = "deployment/" + d.Name
			}
			return a.print(cmd, printer{
				value: listOf[Deployment]{Kind: "DeploymentList", Items: orEmpty(deps)},
				names: names,
				table: func(w io.Writer) {
					fmt.Fprintln(w, "NAMESPACE\tNAME\tREADY\tIMAGE")
					for _, d := range deps {
						ready := 0
						for _, p := range s.Pods {
							if p.Namespace == d.Namespace && p.Owner == d.Name && p.Status == "Running" {
								ready++
							}
						}
						fmt.Fprintf(w, "%s\t%s\t%d/%d\t%s\n", d.Namespace, d.Name, ready, d.Replicas, d.Image)
					}
				},
			})
		},
	}
	cmd.Flags().BoolVarP(&allNamespaces, "all-namespaces", "A", false, "list the deployments of every namespace")
	return cmd
}

// newListCmd is a deprecated command kept for compatibility.
func newListCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:         "list",
		Short:       "List the names of the pods of the namespace",
		Deprecated:  "use get",
		Args:        cobra.NoArgs,
		GroupID:     GroupBasic,
		Annotations: readOnly(),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, _, err := a.load(cmd)
			if err != nil {
				return err
			}
			for _, p := range s.Pods {
				if p.Namespace == a.namespace {
					fmt.Fprintln(cmd.OutOrStdout(), p.Name)
				}
			}
			return nil
		},
	}
}

// newDescribeCmd is the `describe` group.
func newDescribeCmd(a *app) *cobra.Command {
	describe := &cobra.Command{
		Use:     "describe",
		Short:   "Show details of a resource",
		GroupID: GroupBasic,
	}
	describe.AddCommand(&cobra.Command{
		Use:         "pod NAME",
		Aliases:     []string{"pods", "po"},
		Short:       "Show details of one pod",
		Args:        cobra.ExactArgs(1),
		Annotations: readOnly(annTitle, "Describe a pod"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, _, err := a.load(cmd)
			if err != nil {
				return err
			}
			i := s.pod(a.namespace, args[0])
			if i < 0 {
				return notFound("pod", a.namespace, args[0])
			}
			p := s.Pods[i]
			return a.print(cmd, printer{
				value: p,
				names: []string{"pod/" + p.Name},
				table: func(w io.Writer) {
					node := p.Node
					if node == "" {
						node = "<none>"
					}
					owner := p.Owner
					if owner != "" {
						owner = "Deployment/" + owner
					} else {
						owner = "<none>"
					}
					fmt.Fprintf(w, "Name:\t%s\nNamespace:\t%s\nNode:\t%s\nStatus:\t%s\nImage:\t%s\nRestarts:\t%d\nControlled By:\t%s\nLabels:\t%s\n",
						p.Name, p.Namespace, node, p.Status, p.Image, p.Restarts, owner, labelString(p.Labels))
				},
			})
		},
	})
	return describe
}

// orEmpty turns a nil slice into an empty one so that json prints [] rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
