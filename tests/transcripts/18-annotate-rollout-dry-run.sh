# kubectl annotate's own messages and rules (not label's), rollout undo dry runs, rollout restart's
# flags and its one-second guard, and the kubelet's NodeNotSchedulable event on cordon.
kubectl annotate ds kindnet -n kube-system
kubectl annotate ds kindnet -n kube-system note=a note-
kubectl annotate ds kindnet -n kube-system note=a =b
kubectl annotate ds kindnet -n kube-system note=one
kubectl annotate ds kindnet -n kube-system note=one
kubectl annotate ds kindnet -n kube-system note=two kubernetes.io/change-cause=why
kubectl annotate ds kindnet -n kube-system note=two kubernetes.io/change-cause=why --overwrite
kubectl annotate ds kindnet -n kube-system kubernetes.io/change-cause=again
kubectl annotate ds kindnet -n kube-system absent-
kubectl annotate ds kindnet -n kube-system --list
kubectl label node kind-worker gpu-
kubectl label node kind-worker gpu=yes
kubectl label node kind-worker gpu=yes
kubectl label node kind-worker gpu-
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: demo
spec:
  selector:
    matchLabels:
      app: demo
  template:
    metadata:
      labels:
        app: demo
    spec:
      containers:
      - name: demo
        image: nginx:1.26
EOF
sim settle
kubectl set image ds/demo demo=nginx:1.27
sim settle
kubectl rollout undo ds/demo --dry-run=client
kubectl rollout undo ds/demo --dry-run=server
kubectl rollout undo ds/demo --dry-run=maybe
kubectl get ds demo -o jsonpath='{.spec.template.spec.containers[0].image}{"\n"}'
kubectl rollout history ds/demo --revision=1
kubectl rollout restart ds/demo --dry-run=client
kubectl rollout restart ds/demo
kubectl rollout restart ds/demo
kubectl cordon kind-worker2
kubectl get events --field-selector involvedObject.kind=Node,reason=NodeNotSchedulable
