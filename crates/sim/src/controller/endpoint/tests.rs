//! Ports of upstream's Endpoints controller tests (`endpoints_controller_test.go`) and of
//! `pkg/api/v1/endpoints/util_test.go` against the simulated cluster.
