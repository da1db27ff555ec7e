# More of kubectl: custom columns, jsonpath-as-json, go templates, resource names with groups and
# versions, and the commands a simulated cluster can only answer with kubectl's errors.
kubectl get nodes -o custom-columns=NAME:.metadata.name,VERSION:.status.nodeInfo.kubeletVersion,TAINTS:.spec.taints[*].key
kubectl get nodes -o custom-columns='NAME:{.metadata.name},LABELS:metadata.labels,CPU:.status.allocatable.cpu' --no-headers
kubectl get ds -A -o custom-columns=NS:.metadata.namespace,NAME:.metadata.name,IMAGES:.spec.template.spec.containers[*].image
kubectl get pods -o custom-columns=NAME:.metadata.name
kubectl get nodes -o custom-columns=
kubectl get nodes -o custom-columns=NAME:.metadata.name,oops
kubectl get nodes -o custom-columns='NAME:{{.metadata.name}}'
kubectl get nodes -o custom-columns=NAME:.metadata.name,C:.status.conditions[99].type
kubectl get nodes -o custom-columns-file=missing.txt
kubectl get pods -o name
kubectl get nodes -o jsonpath-as-json='{.items[*].metadata.name}'
kubectl get node kind-worker -o jsonpath-as-json='{range .status.conditions[*]}{.type}{"\n"}{end}'
kubectl get ds kindnet -n kube-system -o jsonpath-as-json='{.spec.selector}{.nope}'
kubectl get nodes -o jsonpath-as-json='{.items[0'
kubectl get nodes -o jsonpath-as-json
kubectl get nodes -o go-template='{{range .items}}{{.metadata.name}}{{"\t"}}{{index .metadata.labels "kubernetes.io/os"}}{{"\n"}}{{end}}'
kubectl get node kind-worker -o go-template='{{printf "%s has %d conditions\n" .metadata.name (len .status.conditions)}}'
kubectl get node kind-worker -o template='{{if .spec.taints}}tainted{{else}}no taints{{end}}{{"\n"}}'
kubectl get ds -n kube-system -o go-template='{{range .items}}{{.metadata.name}}: {{range .spec.template.spec.containers}}{{.image}} {{end}}{{"\n"}}{{end}}'
kubectl get node kind-worker -o go-template='{{.metadata.nope}} {{.status.capacity}}{{"\n"}}'
kubectl get node kind-worker -o go-template='{{.metadata.name'
kubectl get node kind-worker -o go-template='{{foo .metadata.name}}'
kubectl get node kind-worker -o go-template='{{range .items}}'
kubectl get node kind-worker -o go-template='{{index .status.conditions 9}}'
kubectl get node kind-worker -o go-template
kubectl get ds.apps -A
kubectl get daemonset.v1.apps kindnet -n kube-system -o name
kubectl get nodes.v1. kind-worker
kubectl get pc.scheduling.k8s.io -o name
kubectl get daemonsets.v2.apps -A
kubectl get ds.extensions -A
kubectl api-versions
kubectl api-versions foo
kubectl api-resources
kubectl run web --image=nginx:1.27
kubectl logs web
sim settle
kubectl logs web
kubectl logs web --previous
kubectl logs web -c nope
kubectl logs nope
kubectl logs ds/kindnet -n kube-system
kubectl logs ds/nope
kubectl logs -l app=kindnet -n kube-system
kubectl logs -l app=nope
kubectl logs web -l app=x
kubectl logs -l 'a in ('
kubectl logs
kubectl scale ds/kindnet -n kube-system --replicas=2
kubectl scale ds/nope --replicas=2
kubectl scale ds/kindnet -n kube-system
kubectl scale ds/kindnet -n kube-system --replicas=abc
kubectl events -n kube-system --for=ds/kindnet
kubectl events -A --types=Warning
kubectl events --types=Bad
kubectl events --for=kindnet
kubectl events --for=nope/x
kubectl events -n kube-system --for=ds/kindnet -o json
kubectl events -n kube-system --for=ds/kindnet -o yaml
kubectl events -n kube-system --for=ds/kindnet -o name
kubectl events -n kube-system --for=ds/kindnet --no-headers
kubectl events -n kube-system --for=ds/kindnet -o jsonpath='{.items[*].reason}{"\n"}'
kubectl events -o wide
kubectl edit ds/nope
kubectl edit
kubectl exec web -- ls
kubectl exec nope -- ls
kubectl exec web
kubectl exec
kubectl top nodes
kubectl top pods -A
kubectl top nope
kubectl cluster-info
kubectl explain nope
kubectl get ds -n kube-system -o go-template='{{range .items}}{{if gt .status.numberReady 2}}{{.metadata.name}} {{"aGVhbHRoeQ==" | base64decode}}{{"\n"}}{{end}}{{end}}'
kubectl get node kind-worker -o go-template='{{range $k, $v := .metadata.labels}}{{$k}}={{$v}}{{"\n"}}{{end}}'
kubectl get nodes -o go-template='{{range $i, $n := .items}}{{$i}} {{$n.metadata.name}} {{len $.items}}{{"\n"}}{{end}}'
kubectl get node kind-worker -o go-template='{{if true}}{{$x := 1}}{{end}}{{$x}}'
kubectl get pods -A --sort-by=.spec.nodeName -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName
kubectl get nodes -o custom-columns=N:.metadata.name --show-labels
kubectl get nope --show-labels -o yaml
kubectl rollout history ds -n kube-system
kubectl rollout history daemonsets
kubectl run pinned --image=busybox --overrides='{"spec":{"nodeName":"kind-worker2"}}'
kubectl run bad-overrides --image=busybox --overrides='{bad'
kubectl run bad-type --image=busybox --override-type=x --overrides='{}'
kubectl run merged --image=busybox --override-type=strategic --overrides='{"spec":{"containers":[{"name":"merged","image":"nginx:1.27"}]}}'
kubectl get pod pinned merged -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,IMAGE:.spec.containers[0].image
