# v1 Endpoints next to EndpointSlices: ready and not-ready pods, publishNotReadyAddresses, more than
# three addresses, the API server's kubernetes Endpoints and v1.33's deprecation warning.
# Run: dsplay run 36-endpoints.sh
kubectl get endpoints -A
sim image example.com/slow:1 --ready never
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 4
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - name: http
          containerPort: 8080
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: slow
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
      tier: slow
  template:
    metadata:
      labels:
        app: web
        tier: slow
    spec:
      containers:
      - name: web
        image: example.com/slow:1
        ports:
        - name: http
          containerPort: 8080
---
apiVersion: v1
kind: Service
metadata:
  name: web
  labels:
    app: web
spec:
  selector:
    app: web
  ports:
  - name: http
    port: 80
    targetPort: http
  - name: admin
    port: 9000
    targetPort: 9000
---
apiVersion: v1
kind: Service
metadata:
  name: slow
spec:
  selector:
    tier: slow
  ports:
  - port: 80
    targetPort: http
---
apiVersion: v1
kind: Service
metadata:
  name: slow-published
spec:
  clusterIP: None
  publishNotReadyAddresses: true
  selector:
    tier: slow
  ports:
  - port: 80
    targetPort: http
EOF
kubectl get ep
sim advance 2s
kubectl get ep
sim settle
kubectl get ep
kubectl get ep -o wide
kubectl get svc,ep slow
kubectl describe endpoints slow
kubectl get ep slow-published -o yaml
kubectl get ep kubernetes -o yaml
kubectl describe ep kubernetes
kubectl scale deploy/web --replicas=1
kubectl get endpoints web slow
kubectl get endpointslices -l kubernetes.io/service-name=web
kubectl delete svc slow
kubectl get ep slow
kubectl get all
# ReplicaFailure: the new ReplicaSet cannot create its pods (an unknown PriorityClass); the
# Deployment copies the condition, and both clear once creates succeed.
kubectl create deployment bad --image=nginx:1.27
kubectl patch deploy bad --type=json -p '[{"op":"add","path":"/spec/template/spec/priorityClassName","value":"missing"}]'
kubectl get rs -l app=bad
kubectl describe deploy bad
sim rollout deploy/bad
kubectl get rs -l app=bad -o jsonpath='{range .items[*]}{.metadata.name} {.status.conditions}{"\n"}{end}'
kubectl apply -f - <<EOF
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: missing
value: 1000
EOF
kubectl scale deploy bad --replicas=2
sim settle
kubectl get deploy bad -o jsonpath='{.status.conditions[*].type}{"\n"}'
sim rollout deploy/bad
# sim explain / sim rollout for a StatefulSet: OrderedReady, partition, scale down.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 3
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
        image: nginx:1.27
EOF
sim explain sts/db
sim settle
kubectl patch sts db -p '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":1}}}}'
kubectl set image sts/db db=nginx:1.28
sim rollout sts/db
sim settle
sim rollout sts/db
kubectl scale sts db --replicas=1
sim explain sts/db
sim rollout sts/nope
