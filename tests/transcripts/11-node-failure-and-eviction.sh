# A failed node: 40 s later Ready=Unknown with unreachable taints; the daemon pod stays (tolerated
# forever) but DESIRED drops and it counts as misscheduled; an ordinary pod is evicted after 300 s.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      labels:
        app: agent
    spec:
      containers:
      - name: agent
        image: busybox
EOF
kubectl run web --image=nginx
sim settle
kubectl get pods -o wide
sim node fail kind-worker2
sim advance 40s
kubectl get nodes
kubectl get ds agent
kubectl get ds agent -o jsonpath='{.status.numberMisscheduled}{"\n"}'
kubectl describe node kind-worker2
sim advance 299s
kubectl get pods -o wide
sim advance 1s
kubectl get pods -o wide
sim node recover kind-worker2
sim settle
kubectl get nodes
kubectl get ds agent
