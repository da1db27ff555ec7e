# Bad input never changes the cluster: kubectl-style errors, exit 1, and the next command still runs.
kubectl get ds --foo
kubectl get ds -z
kubectl get
kubectl frobnicate
kubectl get widgets
kubectl get ds nope
kubectl describe ds nope
kubectl delete ds nope
kubectl get ds -o foo
kubectl taint nodes kind-worker a=b:Foo
kubectl taint nodes kind-worker :NoSchedule
kubectl taint nodes kind-worker
kubectl label nodes kind-worker
kubectl label nodes kind-worker kubernetes.io/os=windows
kubectl cordon
kubectl rollout undo ds/nope
kubectl apply -f - <<EOF
apiVersion: extensions/v1beta1
kind: DaemonSet
metadata:
  name: fluentd
  namespace: kube-system
spec:
  template:
    metadata:
      labels:
        name: fluentd
    spec:
      containers:
      - name: fluentd
        image: fluentd
EOF
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: bad
spec:
  selector:
    matchLabels:
      app: a
  template:
    metadata:
      labels:
        app: b
    spec:
      containers:
      - name: c
        image: busybox
EOF
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: typo
spec:
  selector:
    matchLabels:
      app: typo
  template:
    metadata:
      labels:
        app: typo
    spec:
      tolerationz: []
      containers:
      - name: c
        image: busybox
EOF
kubectl apply --validate=warn -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: typo
spec:
  selector:
    matchLabels:
      app: typo
  template:
    metadata:
      labels:
        app: typo
    spec:
      tolerationz: []
      containers:
      - name: c
        image: busybox
EOF
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: broken
  spec: [
EOF
kubectl get ds "unterminated
sim advance forever
sim node fail nowhere
sim frob
kubectl get ds
# --timeout is a Go duration: a bare number, an unknown unit or junk is refused like kubectl does;
# `kubectl wait --timeout=0` checks once without waiting.
kubectl rollout status ds/kindnet -n kube-system --timeout=10
kubectl wait --for=delete ns/default --timeout=abc
kubectl delete pod nope --timeout=5x
kubectl wait --for=delete ns/default --timeout=3000000h
kubectl wait --for=delete ns/default --timeout=0
sim now
