# Output formats and the metadata/node editing commands.
kubectl get nodes --show-labels
kubectl get nodes -L kubernetes.io/hostname
kubectl get ds -A -o name
kubectl get ds -n kube-system -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.status.desiredNumberScheduled}{"\n"}{end}'
kubectl get all -n kube-system
kubectl get pc
kubectl get ns
kubectl label node kind-worker disk=ssd
kubectl label node kind-worker disk=hdd
kubectl label node kind-worker disk=hdd --overwrite
kubectl annotate node kind-worker note=hello
kubectl get nodes -l disk=hdd
kubectl drain kind-worker
kubectl drain kind-worker --ignore-daemonsets
kubectl get nodes
kubectl uncordon kind-worker
kubectl uncordon kind-worker
kubectl create namespace team-a
kubectl get ds -n team-a
kubectl api-resources
kubectl version
sim now
kubectl get ds kube-proxy -n kube-system -o jsonpath='{.metadata.annotations.deprecated\.daemonset\.template\.generation}{"\n"}'
