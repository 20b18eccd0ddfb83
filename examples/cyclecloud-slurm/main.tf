# CycleCloud Slurm partitions sized by hpcsku.
#
# Three recommendations, one per partition of CycleCloud's Slurm cluster:
#   hpc  tightly coupled MPI (InfiniBand, single placement group),
#   gpu  model training,
#   htc  independent tasks (no InfiniBand needed, Spot welcome).
# They become the two parameter sets CycleCloud takes:
#   * CycleCloud Workspace for Slurm (the Marketplace solution, an ARM
#     template): `hpc`, `gpu` and `htc` objects with `sku`, `maxNodes`, `image`;
#   * a CycleCloud Slurm cluster (`cyclecloud create_cluster` / `import_cluster`
#     with `-p`): `HPCMachineType`, `GPUMachineType`, `HTCMachineType`, the
#     node limits and the images.
# Write them to files with `terraform output -raw <name> > file.json`, or
# give `ccws_template_file` to deploy the workspace from here.
#
# This matters most for the GPU partition: CycleCloud's Slurm template still
# defaults GPUMachineType to Standard_NC24rs_v3, which retired on 2025-09-30.

data "hpcsku_recommendation" "hpc" {
  workload = "hpc"
  cores    = var.hpc_cores_per_job
  target   = "cyclecloud"
  region   = var.location
  prefer   = var.prefer.hpc
}

data "hpcsku_recommendation" "gpu" {
  workload = "training"
  model = {
    parameters_billion = var.gpu_model_parameters_billion
    precision          = var.gpu_precision
  }
  target = "cyclecloud"
  region = var.location
  prefer = var.prefer.gpu
}

data "hpcsku_recommendation" "htc" {
  workload     = "htc"
  min_vcpus    = var.htc_min_vcpus
  interconnect = "any"
  spot         = var.htc_use_spot
  target       = "cyclecloud"
  region       = var.location
  prefer       = var.prefer.htc
}

locals {
  recommendations = {
    hpc = data.hpcsku_recommendation.hpc
    gpu = data.hpcsku_recommendation.gpu
    htc = data.hpcsku_recommendation.htc
  }

  partitions = {
    for name, r in local.recommendations : name => {
      machine_type  = r.recommendations[0].deployment.cyclecloud.machine_type
      slurm_hpc     = r.recommendations[0].deployment.cyclecloud.slurm_hpc
      nodes_per_job = r.recommendations[0].nodes
      max_nodes     = max(var.max_nodes[name], r.recommendations[0].nodes)
      # CycleCloud and the workspace take marketplace URNs as images.
      image = coalesce(r.recommendations[0].deployment.image_urn, "microsoft-dsvm:ubuntu-hpc:2204:latest")
    }
  }

  # CycleCloud Workspace for Slurm: the `hpc`, `gpu` and `htc` parameters.
  ccws_partitions = {
    hpc = { value = { sku = local.partitions.hpc.machine_type, maxNodes = local.partitions.hpc.max_nodes, image = local.partitions.hpc.image } }
    gpu = { value = { sku = local.partitions.gpu.machine_type, maxNodes = local.partitions.gpu.max_nodes, image = local.partitions.gpu.image } }
    htc = { value = { sku = local.partitions.htc.machine_type, maxNodes = local.partitions.htc.max_nodes, image = local.partitions.htc.image, useSpot = var.htc_use_spot } }
  }
  ccws_parameters = merge(
    { for k, v in var.ccws_parameters : k => { value = v } },
    local.ccws_partitions,
  )

  # CycleCloud's Slurm cluster template parameters.
  slurm_cluster_parameters = {
    HPCMachineType         = local.partitions.hpc.machine_type
    GPUMachineType         = local.partitions.gpu.machine_type
    HTCMachineType         = local.partitions.htc.machine_type
    MaxHPCExecuteNodeCount = local.partitions.hpc.max_nodes
    MaxGPUExecuteNodeCount = local.partitions.gpu.max_nodes
    MaxHTCExecuteNodeCount = local.partitions.htc.max_nodes
    HPCImageName           = local.partitions.hpc.image
    GPUImageName           = local.partitions.gpu.image
    HTCImageName           = local.partitions.htc.image
    HTCUseLowPrio          = var.htc_use_spot
  }
}

resource "azurerm_subscription_template_deployment" "ccws" {
  count = var.ccws_template_file == null ? 0 : 1

  name               = var.deployment_name
  location           = var.location
  template_content   = file(var.ccws_template_file)
  parameters_content = jsonencode(local.ccws_parameters)
}
