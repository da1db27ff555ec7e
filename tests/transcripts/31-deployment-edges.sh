# Deployments at the edges: errors of create deployment, --all and -l, a Recreate rollout, a
# rollout that exceeds its progress deadline, a ReplicaSet deleted under its Deployment.
kubectl create deployment web --image=nginx:1.27
kubectl create deployment web --image=nginx:1.27
kubectl create deployment bad
kubectl get rs -o name
kubectl rollout history deployments
kubectl scale deploy --all --replicas=2
kubectl rollout undo deploy/web
kubectl rollout resume deploy/web
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: db
  annotations:
    kubernetes.io/change-cause: first
spec:
  replicas: 2
  strategy:
    type: Recreate
  progressDeadlineSeconds: 60
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      containers:
      - name: db
        image: postgres:16
EOF
kubectl rollout status deploy/db
sim image postgres:broken --pull fail
kubectl set image deploy/db db=postgres:broken
kubectl annotate deploy/db kubernetes.io/change-cause=broken --overwrite
sim advance 30s
kubectl get pods -l app=db
kubectl rollout status deploy/db --timeout=2m
kubectl get deploy db
kubectl rollout history deploy/db
kubectl rollout undo deploy/db
kubectl rollout status deploy/db
kubectl get deploy -l app=db -o wide
kubectl get rs -l app=db -o wide
kubectl describe rs -l app=db
kubectl get deploy db -o yaml
kubectl delete rs -l app=web
kubectl get deploy web
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: other
  template:
    metadata:
      labels:
        app: other
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
EOF
kubectl scale deploy db --replicas=-1
kubectl delete deploy --all
