//! kind's two Deployments: CoreDNS (kubeadm's addon, in kube-system) and the local-path
//! provisioner (kind's default StorageClass backend, in its own namespace `local-path-storage`).
//! Both tolerate the control-plane taint and are scheduled while the control plane is the only
//! node, so, as on a fresh kind cluster, their pods run there. The provisioner serves kind's
//! default StorageClass `standard`.

/// Images of the addons; the kind node image ships them.
pub const ADDON_IMAGES: [&str; 2] = [
    "registry.k8s.io/coredns/coredns:v1.11.3",
    "docker.io/kindest/local-path-provisioner:v20241212-8ac705d0",
];

/// kind's default StorageClass, served by the local-path provisioner (kind applies it with
/// `kubectl apply`, hence the last-applied annotation).
pub const KIND_STORAGE_CLASS: &str = r#"
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"annotations":{"storageclass.kubernetes.io/is-default-class":"true"},"name":"standard"},"provisioner":"rancher.io/local-path","reclaimPolicy":"Delete","volumeBindingMode":"WaitForFirstConsumer"}
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: rancher.io/local-path
reclaimPolicy: Delete
volumeBindingMode: WaitForFirstConsumer
"#;

/// The addon manifests, in creation order.
pub const KIND_ADDONS: &str = r#"
apiVersion: v1
kind: Namespace
metadata: {name: local-path-storage}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: coredns
  namespace: kube-system
  labels: {k8s-app: kube-dns}
spec:
  replicas: 2
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxUnavailable: 1}
  selector:
    matchLabels: {k8s-app: kube-dns}
  template:
    metadata:
      labels: {k8s-app: kube-dns}
    spec:
      priorityClassName: system-cluster-critical
      serviceAccountName: coredns
      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 100
            podAffinityTerm:
              labelSelector:
                matchExpressions:
                - {key: k8s-app, operator: In, values: [kube-dns]}
              topologyKey: kubernetes.io/hostname
      tolerations:
      - {key: CriticalAddonsOnly, operator: Exists}
      - {key: node-role.kubernetes.io/control-plane, effect: NoSchedule}
      nodeSelector:
        kubernetes.io/os: linux
      dnsPolicy: Default
      containers:
      - name: coredns
        image: registry.k8s.io/coredns/coredns:v1.11.3
        imagePullPolicy: IfNotPresent
        args: [-conf, /etc/coredns/Corefile]
        resources:
          limits: {memory: 170Mi}
          requests: {cpu: 100m, memory: 70Mi}
        volumeMounts:
        - {name: config-volume, mountPath: /etc/coredns, readOnly: true}
        ports:
        - {containerPort: 53, name: dns, protocol: UDP}
        - {containerPort: 53, name: dns-tcp, protocol: TCP}
        - {containerPort: 9153, name: metrics, protocol: TCP}
        securityContext:
          allowPrivilegeEscalation: false
          capabilities:
            add: [NET_BIND_SERVICE]
            drop: [ALL]
          readOnlyRootFilesystem: true
        livenessProbe:
          httpGet: {path: /health, port: 8080, scheme: HTTP}
          initialDelaySeconds: 60
          timeoutSeconds: 5
          successThreshold: 1
          failureThreshold: 5
        readinessProbe:
          httpGet: {path: /ready, port: 8181, scheme: HTTP}
      volumes:
      - name: config-volume
        configMap:
          name: coredns
          items:
          - {key: Corefile, path: Corefile}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: local-path-provisioner
  namespace: local-path-storage
spec:
  replicas: 1
  selector:
    matchLabels: {app: local-path-provisioner}
  template:
    metadata:
      labels: {app: local-path-provisioner}
    spec:
      nodeSelector:
        kubernetes.io/os: linux
      tolerations:
      - {key: node-role.kubernetes.io/control-plane, operator: Equal, effect: NoSchedule}
      - {key: node-role.kubernetes.io/master, operator: Equal, effect: NoSchedule}
      serviceAccountName: local-path-provisioner-service-account
      containers:
      - name: local-path-provisioner
        image: docker.io/kindest/local-path-provisioner:v20241212-8ac705d0
        imagePullPolicy: IfNotPresent
        command:
        - local-path-provisioner
        - --debug
        - start
        - --helper-image
        - docker.io/kindest/local-path-helper:v20241212-8ac705d0
        - --config
        - /etc/config/config.json
        volumeMounts:
        - {name: config-volume, mountPath: /etc/config/}
        env:
        - name: POD_NAMESPACE
          valueFrom:
            fieldRef: {fieldPath: metadata.namespace}
        - {name: CONFIG_MOUNT_PATH, value: /etc/config/}
      volumes:
      - name: config-volume
        configMap: {name: local-path-config}
"#;
