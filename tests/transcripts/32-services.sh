# The seed's node agent: a DaemonSet with hostPort 11559 answers on each node's IP; then a Service
# with internalTrafficPolicy: Local in front of it, so each client pod talks to the agent on its node.
# Run: dsplay run 31-services.sh
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-agent
spec:
  selector:
    matchLabels:
      app: node-agent
  template:
    metadata:
      labels:
        app: node-agent
    spec:
      tolerations:
      - key: node-role.kubernetes.io/control-plane
        operator: Exists
        effect: NoSchedule
      containers:
      - name: agent
        image: registry.k8s.io/e2e-test-images/agnhost:2.53
        args: ["netexec", "--http-port=11559"]
        ports:
        - name: http
          containerPort: 11559
          hostPort: 11559
EOF
kubectl rollout status ds/node-agent --timeout=2m
kubectl get nodes -o wide
sim curl http://172.18.0.2:11559/hostname
sim curl http://172.18.0.3:11559/hostname
sim curl http://172.18.0.4:11559/hostname
sim curl http://172.18.0.3:11560/
sim curl http://node-agent:11559/
kubectl apply -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: node-agent
spec:
  selector:
    app: node-agent
  internalTrafficPolicy: Local
  ports:
  - name: http
    port: 11559
    targetPort: http
EOF
kubectl apply -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: node-agent
spec:
  selector:
    app: node-agent
  internalTrafficPolicy: Local
  ports:
  - name: http
    port: 11559
    targetPort: http
EOF
kubectl apply -f - <<EOF
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: client
spec:
  selector:
    matchLabels:
      app: client
  template:
    metadata:
      labels:
        app: client
    spec:
      containers:
      - name: client
        image: registry.k8s.io/e2e-test-images/agnhost:2.53
        args: ["pause"]
EOF
kubectl rollout status ds/client --timeout=2m
kubectl get pods -o wide
kubectl get svc,endpointslices
kubectl get svc -o wide
kubectl describe svc node-agent
kubectl describe endpointslices -l kubernetes.io/service-name=node-agent
kubectl describe endpointslice kubernetes
sim curl --from pod/client-mfx4t http://node-agent:11559/hostname
sim curl --from pod/client-mszp7 http://node-agent:11559/hostname
sim curl --from pod/client-mszp7 http://node-agent.default.svc.cluster.local:11559/
sim curl --from pod/client-mfx4t http://10.244.2.2:11559/
sim curl --from node/kind-worker http://10.96.243.208:11559/
sim curl --from node/kind-worker http://node-agent:11559/
sim curl http://node-agent.default.svc.cluster.local:11559/
kubectl get svc kubernetes
kubectl get endpointslices -n kube-system -l kubernetes.io/service-name=kube-dns
kubectl expose ds node-agent --port=80
kubectl run web --image=nginx:1.27 --port=8080 --labels=app=web
kubectl expose pod web --port=80 --target-port=8080
kubectl expose pod web --name=web-np --type=NodePort
sim advance 5s
kubectl get svc web web-np
sim curl --from pod/client-mfx4t http://web/
sim curl http://172.18.0.4:30984/
kubectl describe svc web-np
sim curl --from pod/nope http://web/
sim curl --from deployment/x http://web/
sim curl ftp://web/
kubectl apply -f - <<EOF
apiVersion: v1
kind: Service
metadata:
  name: 1bad
spec:
  type: Foo
  selector:
    app: web
EOF
kubectl patch svc web -p '{"spec":{"clusterIP":"10.96.0.99"}}'
kubectl create service clusterip my-svc --tcp=5678:8080
kubectl create service nodeport np --tcp=80:http
kubectl create service clusterip noport
kubectl create service clusterip my-svc --tcp=5678:8080
kubectl get svc my-svc np -o wide
kubectl delete svc node-agent
kubectl get endpointslices
