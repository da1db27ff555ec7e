# A rollout whose pods crash-loop never completes: a real `kubectl rollout status` would wait
# forever; the simulated one steps through the back-off timers for an hour of virtual time and
# gives up (and `--timeout` still bounds it).
sim image busybox:crash --crash
kubectl create -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: crashy
spec:
  selector:
    matchLabels:
      app: crashy
  template:
    metadata:
      labels:
        app: crashy
    spec:
      containers:
      - name: crashy
        image: busybox:crash
EOF
kubectl rollout status ds/crashy --timeout=30s
sim now
kubectl rollout status ds/crashy
sim now
kubectl get ds crashy
kubectl get pods -l app=crashy
