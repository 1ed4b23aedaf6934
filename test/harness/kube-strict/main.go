package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
)

// kube-strict, for the Helm chart's tests (test/harness/kube-strict.ts builds it from the Go module
// proxy): reads JSON manifests, one per line, and decodes each strictly into its type of k8s.io/api,
// as the API server's strict field validation does: unknown or duplicate fields and wrong types
// are errors. Prints one line per manifest: "ok <kind>/<name>", "unknown <apiVersion> <kind>"
// (a kind it has no type for, e.g. a custom resource) or "error <kind>/<name>: <message>".
func main() {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{appsv1.AddToScheme, autoscalingv2.AddToScheme, corev1.AddToScheme, networkingv1.AddToScheme, policyv1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	strict := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme, kjson.SerializerOptions{Strict: true})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<20), 64<<20)
	for in.Scan() {
		line := in.Bytes()
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			fmt.Printf("error ?: %v\n", err)
			continue
		}
		gvk := schema.FromAPIVersionAndKind(head.APIVersion, head.Kind)
		if !scheme.Recognizes(gvk) {
			fmt.Printf("unknown %s %s\n", head.APIVersion, head.Kind)
			continue
		}
		if _, _, err := strict.Decode(line, &gvk, nil); err != nil {
			fmt.Printf("error %s/%s: %v\n", head.Kind, head.Metadata.Name, err)
			continue
		}
		fmt.Printf("ok %s/%s\n", head.Kind, head.Metadata.Name)
	}
}
