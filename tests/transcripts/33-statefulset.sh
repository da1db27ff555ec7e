# StatefulSets: ordinal pods created one at a time (OrderedReady), each with a DNS name under its
# headless Service (web-0.nginx), a claim per pod from the
# volumeClaimTemplates bound by kind's standard StorageClass once the pod is scheduled, scale
# down and up, a rolling update in reverse ordinal order, a partitioned canary, history and undo,
# and OnDelete.
kubectl get sc
kubectl apply -f - <<YAML
apiVersion: v1
kind: Service
metadata:
  name: nginx
spec:
  clusterIP: None
  selector:
    app: nginx
  ports:
  - port: 80
    name: web
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  serviceName: nginx
  replicas: 3
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: registry.k8s.io/nginx-slim:0.24
        ports:
        - containerPort: 80
          name: web
        volumeMounts:
        - name: www
          mountPath: /usr/share/nginx/html
  volumeClaimTemplates:
  - metadata:
      name: www
    spec:
      accessModes: ["ReadWriteOnce"]
      resources:
        requests:
          storage: 1Gi
YAML
kubectl get pods -l app=nginx
kubectl get pvc
sim advance 3s
kubectl get pods -l app=nginx -o wide
kubectl rollout status sts/web
kubectl get sts web -o wide
kubectl get all
kubectl get endpointslices -l kubernetes.io/service-name=nginx -o jsonpath='{range .items[0].endpoints[*]}{.hostname} {.targetRef.name} {.nodeName}{"\n"}{end}'
sim curl --from pod/web-1 http://web-0.nginx/
sim curl --from pod/web-1 http://web-2.nginx.default.svc.cluster.local/
sim curl --from pod/web-1 http://web-9.nginx/
kubectl get pods -l app=nginx -L apps.kubernetes.io/pod-index,controller-revision-hash
kubectl get pvc,pv
kubectl describe pvc www-web-0
kubectl get pod web-0 -o jsonpath='{.spec.hostname}.{.spec.subdomain} {.spec.volumes[0]}{"\n"}'
kubectl scale sts web --replicas=1
kubectl get pods -l app=nginx
sim settle
kubectl get pods -l app=nginx
kubectl get pvc
kubectl scale sts web --replicas=3
kubectl rollout status statefulset web
kubectl get pods -l app=nginx -o wide
kubectl set image sts/web nginx=registry.k8s.io/nginx-slim:0.27
kubectl get pods -l app=nginx
kubectl rollout status sts/web
kubectl get events --field-selector involvedObject.kind=StatefulSet
kubectl patch sts web -p '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":2}}}}'
kubectl set image sts/web nginx=registry.k8s.io/nginx-slim:0.28
kubectl rollout status sts/web
kubectl get pods -l app=nginx -L controller-revision-hash
kubectl get sts web -o jsonpath='{.status.currentRevision} {.status.updateRevision} {.status.currentReplicas} {.status.updatedReplicas}{"\n"}'
kubectl patch sts web -p '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":0}}}}'
kubectl rollout status sts/web
kubectl rollout history statefulsets
kubectl rollout history sts/web --revision=2
kubectl rollout undo sts/web
kubectl rollout status sts/web
kubectl get controllerrevisions -l app=nginx
kubectl describe sts web
kubectl patch sts web -p '{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}'
kubectl set image sts/web nginx=registry.k8s.io/nginx-slim:0.29
kubectl rollout status sts/web
sim settle
kubectl get pods -l app=nginx -L controller-revision-hash
kubectl delete pod web-1
sim settle
kubectl get pods -l app=nginx -o custom-columns=NAME:.metadata.name,IMAGE:.spec.containers[0].image
