# Surge rollout (maxSurge 1, maxUnavailable 0), history, undo without restarting, restart.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: web
  annotations:
    kubernetes.io/change-cause: first version
spec:
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
EOF
kubectl rollout status ds/web
kubectl set image ds/web nginx=nginx:1.26
sim advance 1s
kubectl get pods -l app=web -o wide
kubectl rollout status ds/web
kubectl get pods -l app=web
kubectl rollout history ds/web
kubectl rollout undo ds/web
kubectl rollout history ds/web
kubectl get controllerrevisions -l app=web
kubectl rollout undo ds/web --to-revision=7
kubectl rollout restart ds/web
kubectl rollout status ds/web --timeout=1s
kubectl rollout status ds/web
kubectl get pods -l app=web -w
kubectl set image ds/web nginx=nginx:1.27
sim settle
kubectl get pods -l app=web
