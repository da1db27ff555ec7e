# StatefulSet edges: the API server's validation texts, the forbidden-update message, Parallel pod
# management (all pods at once, scale down all at once), a pod whose claim is missing, deleting a
# StatefulSet (its pods and revisions go, its claims and volumes stay), a claim deleted while a pod
# uses it (Terminating until the pod is gone), the Delete retention policies, and claims of
# their own: one naming a missing class, one given the default class and bound for its pod;
# --cascade=orphan (pods and claims kept, adopted by a new StatefulSet) and --cascade=foreground;
# StorageClass validation.
kubectl apply -f - <<YAML
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: bad
spec:
  podManagementPolicy: Sometimes
  replicas: -1
  selector:
    matchLabels:
      app: x
  updateStrategy:
    type: OnDelete
    rollingUpdate:
      partition: 1
  persistentVolumeClaimRetentionPolicy:
    whenDeleted: Keep
  template:
    metadata:
      labels:
        app: other
    spec:
      restartPolicy: Never
      activeDeadlineSeconds: 10
      containers:
      - name: c
        image: busybox
YAML
kubectl apply -f - <<YAML
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: bad
spec:
  selector: {}
  updateStrategy:
    type: Sideways
  template:
    metadata:
      labels:
        app: other
    spec:
      containers:
      - name: c
        image: busybox
YAML
kubectl apply -f - <<YAML
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  podManagementPolicy: Parallel
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
        image: postgres:17
        volumeMounts:
        - name: data
          mountPath: /var/lib/postgresql/data
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: ["ReadWriteOnce"]
      resources:
        requests:
          storage: 2Gi
YAML
kubectl get pods -l app=db
kubectl get sts db
kubectl get sts db -o yaml
kubectl rollout status sts db
kubectl patch sts db -p '{"spec":{"podManagementPolicy":"OrderedReady"}}'
kubectl patch sts db --type=json -p '[{"op":"replace","path":"/spec/volumeClaimTemplates/0/spec/resources/requests/storage","value":"5Gi"}]'
kubectl patch sts db -p '{"spec":{"replicas":-2}}'
kubectl scale sts db --replicas=1
kubectl get pods -l app=db
sim settle
kubectl get pods,pvc -l app=db
kubectl get pvc data-db-1 -o yaml
kubectl get pv -o custom-columns=NAME:.spec.claimRef.name,NODE:.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values[0],PATH:.spec.hostPath.path --sort-by=.spec.claimRef.name
kubectl describe pv pvc-57c6c841-96c3-4f56-89c4-1322d9d70583
kubectl describe sc standard
kubectl apply -f - <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: orphan-claim
spec:
  containers:
  - name: c
    image: busybox
  volumes:
  - name: v
    persistentVolumeClaim:
      claimName: nothing-here
YAML
kubectl get pod orphan-claim
kubectl get events --field-selector involvedObject.name=orphan-claim
kubectl delete pod orphan-claim
kubectl delete sts db
sim settle
kubectl get sts,pods,controllerrevisions -l app=db
kubectl get pvc
kubectl delete pvc data-db-2
kubectl get pv
kubectl apply -f - <<YAML
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: cache
spec:
  replicas: 2
  podManagementPolicy: Parallel
  persistentVolumeClaimRetentionPolicy:
    whenDeleted: Delete
    whenScaled: Delete
  selector:
    matchLabels:
      app: cache
  template:
    metadata:
      labels:
        app: cache
    spec:
      containers:
      - name: redis
        image: redis:7
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: ["ReadWriteOnce"]
      resources:
        requests:
          storage: 1Gi
YAML
kubectl rollout status sts cache
kubectl get pvc -o custom-columns=NAME:.metadata.name,OWNER:.metadata.ownerReferences[0].kind,STATUS:.status.phase
kubectl delete pvc data-cache-0 --wait=false
kubectl get pvc
kubectl scale sts cache --replicas=1
kubectl get pvc -o custom-columns=NAME:.metadata.name,OWNER:.metadata.ownerReferences[0].kind
sim settle
kubectl get pvc,pv
kubectl delete sts cache
kubectl get pvc
sim settle
kubectl get pvc,pv
kubectl apply -f - <<YAML
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: fast
spec:
  storageClassName: fast
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: plain
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 1Gi
YAML
kubectl get pvc
kubectl describe pvc fast
kubectl get pvc plain -o jsonpath='{.spec.storageClassName}{"\n"}'
kubectl apply -f - <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: reader
spec:
  containers:
  - name: c
    image: busybox
    volumeMounts:
    - {name: v, mountPath: /data}
  volumes:
  - name: v
    persistentVolumeClaim:
      claimName: plain
YAML
kubectl get pvc plain
kubectl get pod reader -o wide
kubectl apply -f - <<YAML
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  replicas: 2
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: c
        image: nginx
  volumeClaimTemplates:
  - metadata: {name: d}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
YAML
kubectl rollout status sts web
kubectl delete sts web --cascade=orphan
kubectl get pods,pvc
kubectl get pvc d-web-0 -o jsonpath='{.metadata.ownerReferences}{"\n"}'
kubectl apply -f - <<YAML
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: c
        image: nginx
  volumeClaimTemplates:
  - metadata: {name: d}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
YAML
kubectl get pods
kubectl get sts web
kubectl delete sts web --cascade=foreground --wait=false
kubectl get sts,pods
sim settle
kubectl get sts,pods
kubectl apply -f - <<YAML
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: slow
provisioner: ""
reclaimPolicy: Recycle
volumeBindingMode: Later
YAML
kubectl patch sc standard -p '{"reclaimPolicy":"Retain"}'
kubectl get all
