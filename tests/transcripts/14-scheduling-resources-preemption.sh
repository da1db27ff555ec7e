# A daemon pod that does not fit stays Pending with the scheduler's FitError; a system-node-critical
# daemon preempts a low-priority pod.
sim reset --empty
sim node add n1 --cpu 1
sim node add n2 --cpu 1
kubectl apply -f - <<EOF
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: low
value: 10
---
apiVersion: v1
kind: Pod
metadata:
  name: hog
spec:
  priorityClassName: low
  nodeName: n1
  containers:
  - name: hog
    image: busybox
    resources:
      requests:
        cpu: 800m
EOF
sim settle
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: big
spec:
  selector:
    matchLabels:
      app: big
  template:
    metadata:
      labels:
        app: big
    spec:
      containers:
      - name: big
        image: busybox
        resources:
          requests:
            cpu: "2"
EOF
sim settle
kubectl get pods -l app=big -o wide
kubectl describe ds big
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: critical
spec:
  selector:
    matchLabels:
      app: critical
  template:
    metadata:
      labels:
        app: critical
    spec:
      priorityClassName: system-node-critical
      containers:
      - name: c
        image: busybox
        resources:
          requests:
            cpu: 500m
EOF
sim advance 1s
kubectl get pods -o wide
sim settle
kubectl get pods -o wide
kubectl get events --field-selector reason=Preempted
