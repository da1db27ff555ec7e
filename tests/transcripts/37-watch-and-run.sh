# Watches print every write, in order: a pod shows Pending twice (created, then bound), a deleted
# pod ends with its terminal status; kubectl events -w prints the events there are, then each new one
# (a table, or whole objects with -o yaml). kubectl run --env/--annotations/--image-pull-policy/--command.
kubectl get pods -w
kubectl run web --image=nginx --env=MODE=demo --env=LEVEL=2 --annotations=team=docs --image-pull-policy=IfNotPresent --port=80
sim advance 5s
kubectl get pods -w
kubectl delete pod web --wait=false
sim advance 5s
kubectl get pod web -o jsonpath='{.spec.containers[0].env}{"\n"}{.metadata.annotations}{"\n"}{.spec.containers[0].imagePullPolicy}{"\n"}'
kubectl events -w --for pod/web
sim image nope --pull fail
kubectl events -w --types Warning
kubectl run bad --image=nope --restart=Never
sim advance 20s
kubectl run sleeper --image=busybox --command -- sleep 3600
kubectl get pod sleeper -o jsonpath='{.spec.containers[0].command}{"\n"}{.spec.containers[0].args}{"\n"}'
kubectl run x --image=busybox --restart=Sometimes
kubectl run x --image=busybox --image-pull-policy=Sometimes
kubectl run x --image=busybox --env=1BAD=x
kubectl events -w -o yaml
