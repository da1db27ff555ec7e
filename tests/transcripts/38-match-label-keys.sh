# matchLabelKeys in pod anti-affinity: the API server merges `pod-template-hash In (<the new pod's
# hash>)` into each new pod's labelSelector, so during a rolling update new replicas only keep away
# from new replicas. Two replicas that refuse to share a node fill both workers; the surge pod of
# the update can still start next to an old one, and the rollout completes. Without the key the
# surge pod stays Pending (the old replicas hold both workers) and the rollout waits. The keys are
# validated after the merge: a key also in the selector, a key both to match and to mismatch, or
# keys without a selector are refused.
kubectl apply -f - <<YAML
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchLabels:
                app: web
            matchLabelKeys:
            - pod-template-hash
            topologyKey: kubernetes.io/hostname
      containers:
      - name: nginx
        image: nginx:1.27
YAML
kubectl rollout status deploy/web --timeout=2m
kubectl set image deploy/web nginx=nginx:1.28
kubectl rollout status deploy/web --timeout=2m
kubectl get pods -l app=web -o wide
kubectl get pods -l app=web -o jsonpath='{range .items[*]}{.metadata.labels.pod-template-hash} {.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions}{"\n"}{end}'
kubectl delete deploy web
kubectl apply -f - <<YAML
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 2
  selector:
    matchLabels:
      app: api
  template:
    metadata:
      labels:
        app: api
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchLabels:
                app: api
            topologyKey: kubernetes.io/hostname
      containers:
      - name: nginx
        image: nginx:1.27
YAML
kubectl rollout status deploy/api --timeout=2m
kubectl set image deploy/api nginx=nginx:1.28
kubectl rollout status deploy/api --timeout=1m
kubectl get pods -l app=api -o wide
kubectl apply -f - <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: twice
  labels:
    app: api
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels:
            app: api
        matchLabelKeys: [app]
        mismatchLabelKeys: [app]
        topologyKey: kubernetes.io/hostname
      - matchLabelKeys: [app]
        topologyKey: kubernetes.io/hostname
  containers:
  - name: c
    image: nginx:1.27
YAML
