# Deployments and ReplicaSets: create, scale, rolling update with rollout status, history, undo,
# pause/resume, describe, and the cascade from a deleted Deployment to its ReplicaSets and pods.
kubectl get deploy -A
kubectl create deployment web --image=nginx:1.27 --replicas=3
kubectl rollout status deployment/web
kubectl get deploy web
kubectl get rs -l app=web
kubectl get pods -l app=web -o wide
kubectl scale deployment web --replicas=5
kubectl rollout status deploy/web
kubectl get deploy web -o wide
kubectl set image deployment/web nginx=nginx:1.28
kubectl rollout status deployment/web
kubectl get rs -l app=web
kubectl describe deployment web
kubectl rollout history deployment/web
kubectl rollout history deployment/web --revision=2
kubectl rollout undo deployment/web
kubectl rollout status deployment/web
kubectl rollout history deployment/web
kubectl rollout undo deployment/web --to-revision=3
kubectl rollout pause deployment/web
kubectl rollout pause deployment/web
kubectl rollout resume deployment/web
kubectl rollout resume deployment/web
kubectl scale deployment web --replicas=2
sim settle
kubectl get deploy,rs -l app=web
kubectl expose deployment web --port=80 --target-port=8080
kubectl get svc web -o wide
kubectl expose rs -l app=web --port=81
kubectl expose rs web-766486c5b6 --port=81 --name=web-rs
kubectl get svc -l app=web
sim curl http://web
kubectl delete deployment web
sim settle
kubectl get rs,pods -l app=web
