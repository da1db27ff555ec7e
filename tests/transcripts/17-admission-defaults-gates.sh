# What the API server does to a Pod that it does not do to a DaemonSet's template: priority
# admission (which runs before the pod's name is generated), Pod-only defaults, readiness gates.
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: prio
spec:
  selector:
    matchLabels:
      app: prio
  template:
    metadata:
      labels:
        app: prio
    spec:
      priorityClassName: missing
      containers:
      - name: c
        image: nginx:1.27
EOF
sim settle
kubectl get events --field-selector reason=FailedCreate
kubectl delete ds prio
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: named
spec:
  priorityClassName: missing
  containers:
  - name: c
    image: nginx:1.27
EOF
kubectl apply -f - <<EOF
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: everyday
value: 1000
globalDefault: true
EOF
kubectl apply -f - <<EOF
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: another
value: 10
globalDefault: true
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: fixed
spec:
  priority: 5
  containers:
  - name: c
    image: nginx:1.27
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: hostnet
spec:
  hostNetwork: true
  containers:
  - name: c
    image: nginx:1.27
    ports:
    - containerPort: 8080
    resources:
      limits:
        cpu: 250m
        memory: 64Mi
    readinessProbe:
      httpGet:
        port: 8080
EOF
kubectl get pod hostnet -o jsonpath='{.spec.priorityClassName} {.spec.priority} {.spec.containers[0].ports[0].hostPort} {.spec.containers[0].resources.requests.cpu} {.status.qosClass}{"\n"}'
kubectl describe priorityclass everyday system-node-critical
kubectl describe namespace kube-system
kubectl delete priorityclass everyday
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: gated
spec:
  selector:
    matchLabels:
      app: gated
  template:
    metadata:
      labels:
        app: gated
    spec:
      readinessGates:
      - conditionType: example.com/lb-ready
      containers:
      - name: c
        image: nginx:1.27
EOF
sim settle
kubectl get pods -l app=gated -o wide
kubectl get ds gated
kubectl get pods -l app=gated -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].message}{"\n"}{end}'
kubectl delete ds gated
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: spaced
spec:
  selector:
    matchLabels:
      app: spaced
  template:
    metadata:
      labels:
        app: spaced
    spec:
      hostNetwork: true
      containers:
      - name: c
        image: " nginx:1.27"
        ports:
        - containerPort: 9100
EOF
sim settle
kubectl get ds spaced
kubectl get events --field-selector reason=FailedCreate,involvedObject.name=spaced
kubectl get ds spaced -o jsonpath='{.spec.template.spec.containers[0].ports[0]}{"\n"}'
