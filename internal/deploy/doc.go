// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Package deploy holds the deployment settings of a ranked layout for each
// target: the azurerm arguments of a VM or scale set (image, accelerated
// networking, confidential VM security settings, zones, InfiniBand
// placement), an AKS node pool (taints, labels, GPU driver, node
// auto-provisioning), a CycleCloud Slurm partition, an Azure Machine
// Learning compute cluster, an Azure Batch pool, and the interconnect
// settings of rack-scale NVLink sizes. For builds them from a Layout (a
// catalog size, its VMs, whether the job spans them over InfiniBand, the
// target) and the catalog's facts; it knows nothing of the ranking, which
// calls it for the sizes it returns (internal/recommend). Each value is
// the downstream's own (azurerm's argument values, AKS's and Karpenter's
// labels), with its source in the comments.
package deploy
