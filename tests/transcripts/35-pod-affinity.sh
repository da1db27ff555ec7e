# Inter-pod affinity and topology spread in the scheduler: a Deployment whose replicas refuse to
# share a node (required podAntiAffinity on the hostname) leaves its third replica Pending on a
# two-worker cluster until it is scaled to 2; a pod with required podAffinity follows another pod
# to its node, and one whose affinity matches nothing stays Pending; a DoNotSchedule
# topologySpreadConstraint counts the tainted control-plane node as a domain (nodeTaintsPolicy
# defaults to Ignore) until nodeTaintsPolicy: Honor leaves it out. DaemonSet pods go through the
# same plugins: a daemon pod whose anti-affinity rejects a pod on its node waits until that pod goes.
# Invalid terms and constraints are refused with the API server's messages.
kubectl apply -f - <<YAML
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
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
            topologyKey: kubernetes.io/hostname
      containers:
      - name: nginx
        image: nginx:1.27
YAML
sim settle
kubectl get deploy web
kubectl get pods -l app=web -o wide
kubectl describe pods -l app=web
kubectl get events --field-selector reason=FailedScheduling
kubectl scale deployment web --replicas=2
sim settle
kubectl get deploy web
kubectl get pods -l app=web -o wide
kubectl delete deployment web
sim settle
kubectl run db --image=redis:7 --labels=app=db
kubectl apply -f - <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: cache
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels:
            app: db
        topologyKey: kubernetes.io/hostname
  containers:
  - name: c
    image: busybox
---
apiVersion: v1
kind: Pod
metadata:
  name: lonely
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels:
            app: nothing-has-this
        topologyKey: kubernetes.io/hostname
  containers:
  - name: c
    image: busybox
YAML
sim settle
kubectl get pods db cache lonely -o wide
kubectl get pod lonely -o jsonpath='{.status.conditions[0].message}{"\n"}'
kubectl apply -f - <<YAML
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
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchLabels:
                app: db
            topologyKey: kubernetes.io/hostname
      containers:
      - name: agent
        image: busybox
YAML
sim settle
kubectl get pods -l app=agent -o wide
sim explain ds/agent
kubectl get events --field-selector reason=FailedScheduling,involvedObject.kind=Pod -o custom-columns=OBJECT:.involvedObject.name,MESSAGE:.message
kubectl delete pod db cache lonely --wait=false
sim settle
kubectl get pods -l app=agent -o wide
kubectl delete ds agent
sim settle
kubectl apply -f - <<YAML
apiVersion: apps/v1
kind: Deployment
metadata:
  name: spread
spec:
  replicas: 4
  selector:
    matchLabels:
      app: spread
  template:
    metadata:
      labels:
        app: spread
    spec:
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: kubernetes.io/hostname
        whenUnsatisfiable: DoNotSchedule
        labelSelector:
          matchLabels:
            app: spread
      containers:
      - name: c
        image: nginx:1.27
YAML
sim settle
kubectl get deploy spread
kubectl get pods -l app=spread -o wide
kubectl get events --field-selector reason=FailedScheduling -o custom-columns=MESSAGE:.message
kubectl patch deployment spread --type=json -p '[{"op":"add","path":"/spec/template/spec/topologySpreadConstraints/0/nodeTaintsPolicy","value":"Honor"}]'
kubectl rollout status deployment/spread
sim settle
kubectl get pods -l app=spread -o wide
kubectl apply -f - <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: invalid
spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels:
            app: web
        topologyKey: ""
  topologySpreadConstraints:
  - maxSkew: 0
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: Maybe
  containers:
  - name: c
    image: busybox
YAML
