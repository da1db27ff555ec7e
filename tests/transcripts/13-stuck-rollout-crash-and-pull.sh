# New pods that never become ready stall a rollout and keep the old healthy pod; crash loops and
# pull failures show kubelet back-off.
sim image busybox:new --ready never
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
        image: busybox:old
EOF
sim settle
kubectl set image ds/demo demo=busybox:new
sim advance 2m
kubectl get pods -l app=demo
kubectl get ds demo
sim explain ds/demo
kubectl rollout status ds/demo --timeout=10s
sim image crashy --crash
kubectl run crash --image=crashy
sim advance 90s
kubectl get pod crash
kubectl describe pod crash
sim image missing:1 --pull fail
kubectl run nopull --image=missing:1
sim advance 3s
kubectl get pod nopull
sim advance 20s
kubectl get pod nopull
sim rollout ds/demo
kubectl set image ds/demo demo=missing:1
sim advance 30s
sim rollout ds/demo
kubectl rollout undo ds/demo
sim settle
sim rollout ds/demo
