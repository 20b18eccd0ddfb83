# CycleCloud Slurm partitions sized by hpcsku.
#
# Three recommendations, one per execute partition of CycleCloud's Slurm cluster:
#   hpc  tightly coupled MPI (InfiniBand within one scale set),
#   gpu  model training,
#   htc  independent tasks (no InfiniBand needed, Spot welcome).
# They become the two parameter sets CycleCloud takes:
#   * CycleCloud Workspace for Slurm (the Marketplace solution, an ARM
#     template): `hpc`, `gpu` and `htc` objects of its hpc_t and htc_t types
#     (`sku`, `osImage`, `maxNodes`, optional `availabilityZone`, and `useSpot`
#     for htc), merged with the other parameters its template requires;
#   * a CycleCloud Slurm cluster (`cyclecloud create_cluster` with `-p`):
#     `HPCMachineType`, `GPUMachineType`, `HTCMachineType`, the node limits,
#     the images, `HPCMaxScalesetSize`, `Region`, and `SubnetId` and
#     `Credentials` when given.
# Write them to files with `terraform output -raw <name> > file.json`, or
# give `ccws_template_file` to deploy the workspace from here.
#
# Each node array takes one machine type and one image. The Slurm template
# sets `slurm.hpc` itself (true for hpc and gpu, false for htc), so there is
# nothing to pass for it. A partition whose size has no documented Marketplace
# image needs `os_images`: the plan stops with an error naming it otherwise.

data "hpcsku_recommendation" "hpc" {
  workload = "hpc"
  cores    = var.hpc_cores_per_job
  target   = "cyclecloud"
  region   = var.location
  prefer   = var.prefer.hpc

  lifecycle {
    postcondition {
      condition     = self.recommendations[0].deployment.cyclecloud.partition == "hpc"
      error_message = "The hpc recommendation, ${self.vm_size}, belongs in the ${self.recommendations[0].deployment.cyclecloud.partition} partition, not hpc."
    }
    postcondition {
      condition     = self.recommendations[0].deployment.cyclecloud.os_image != null || var.os_images.hpc != null
      error_message = "The hpc partition's size, ${self.vm_size} (${self.recommendations[0].deployment.cpu_architecture}), has no documented Marketplace image. Set os_images.hpc to an image with the drivers it needs (a URN, an image resource ID or a CycleCloud image name)."
    }
    postcondition {
      condition     = self.recommendations[0].deployment.cyclecloud.max_scaleset_size == null || self.recommendations[0].deployment.cyclecloud.max_nodes <= coalesce(var.hpc_max_scaleset_size, self.recommendations[0].deployment.cyclecloud.max_scaleset_size, 0)
      error_message = "One hpc job needs ${self.recommendations[0].deployment.cyclecloud.max_nodes} VMs of ${self.vm_size} on one InfiniBand fabric, but HPCMaxScalesetSize would be ${coalesce(var.hpc_max_scaleset_size, self.recommendations[0].deployment.cyclecloud.max_scaleset_size, 0)}: CycleCloud would split the job's VMs across scale sets. Raise hpc_max_scaleset_size or lower hpc_cores_per_job."
    }
    postcondition {
      condition     = self.recommendations[0].deployment.cyclecloud.max_scaleset_size == null || var.hpc_max_scaleset_size == null || coalesce(var.hpc_max_scaleset_size, 0) <= coalesce(self.recommendations[0].deployment.cyclecloud.max_scaleset_size, 0)
      error_message = "hpc_max_scaleset_size is ${coalesce(var.hpc_max_scaleset_size, 0)}, but InfiniBand VMs must share one scale set with a single placement group, which holds at most ${coalesce(self.recommendations[0].deployment.cyclecloud.max_scaleset_size, 0)} VMs."
    }
  }
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

  lifecycle {
    postcondition {
      condition     = self.recommendations[0].deployment.cyclecloud.partition == "gpu"
      error_message = "The gpu recommendation, ${self.vm_size}, belongs in the ${self.recommendations[0].deployment.cyclecloud.partition} partition, not gpu."
    }
    postcondition {
      condition     = self.recommendations[0].deployment.cyclecloud.os_image != null || var.os_images.gpu != null
      error_message = "The gpu partition's size, ${self.vm_size} (${self.recommendations[0].deployment.cpu_architecture}), has no documented Marketplace image with the driver it needs. Set os_images.gpu to such an image (a URN, an image resource ID or a CycleCloud image name), or keep a size that has one with prefer.gpu."
    }
    postcondition {
      condition     = self.recommendations[0].deployment.cyclecloud.max_scaleset_size == null || self.recommendations[0].deployment.cyclecloud.max_nodes <= coalesce(var.hpc_max_scaleset_size, self.recommendations[0].deployment.cyclecloud.max_scaleset_size, 0)
      error_message = "One gpu job needs ${self.recommendations[0].deployment.cyclecloud.max_nodes} VMs of ${self.vm_size} on one InfiniBand fabric, but HPCMaxScalesetSize (which the gpu node array shares) would be ${coalesce(var.hpc_max_scaleset_size, self.recommendations[0].deployment.cyclecloud.max_scaleset_size, 0)}: CycleCloud would split the job's VMs across scale sets. Raise hpc_max_scaleset_size."
    }
    postcondition {
      condition     = self.recommendations[0].deployment.cyclecloud.max_scaleset_size == null || var.hpc_max_scaleset_size == null || coalesce(var.hpc_max_scaleset_size, 0) <= coalesce(self.recommendations[0].deployment.cyclecloud.max_scaleset_size, 0)
      error_message = "hpc_max_scaleset_size is ${coalesce(var.hpc_max_scaleset_size, 0)}, but InfiniBand VMs must share one scale set with a single placement group, which holds at most ${coalesce(self.recommendations[0].deployment.cyclecloud.max_scaleset_size, 0)} VMs."
    }
  }
}

data "hpcsku_recommendation" "htc" {
  workload     = "htc"
  min_vcpus    = var.htc_min_vcpus
  interconnect = "any"
  spot         = var.htc_use_spot
  target       = "cyclecloud"
  region       = var.location
  prefer       = var.prefer.htc

  lifecycle {
    postcondition {
      condition     = self.recommendations[0].deployment.cyclecloud.partition == "htc"
      error_message = "The htc recommendation, ${self.vm_size}, belongs in the ${self.recommendations[0].deployment.cyclecloud.partition} partition, not htc."
    }
    postcondition {
      condition     = self.recommendations[0].deployment.cyclecloud.os_image != null || var.os_images.htc != null
      error_message = "The htc partition's size, ${self.vm_size} (${self.recommendations[0].deployment.cpu_architecture}), has no documented Marketplace image. Set os_images.htc, for example to the CycleCloud image cycle.image.ubuntu24 for a CPU size, or to an image URN or resource ID."
    }
  }
}

locals {
  recommendations = {
    hpc = data.hpcsku_recommendation.hpc
    gpu = data.hpcsku_recommendation.gpu
    htc = data.hpcsku_recommendation.htc
  }

  partitions = {
    for name, r in local.recommendations : name => {
      machine_type     = r.recommendations[0].deployment.cyclecloud.machine_type
      cpu_architecture = r.recommendations[0].deployment.cpu_architecture
      rdma             = r.recommendations[0].deployment.rdma
      nodes_per_job    = r.recommendations[0].deployment.cyclecloud.max_nodes
      max_nodes        = max(var.max_nodes[name], r.recommendations[0].deployment.cyclecloud.max_nodes)
      # The size's InfiniBand span (one scale set with a single placement
      # group: 300 VMs on the HPC series whose pages state it, 100 where
      # none is stated) when the job uses InfiniBand across VMs; null
      # otherwise.
      max_scaleset_size = r.recommendations[0].deployment.cyclecloud.max_scaleset_size
      # The override wins; otherwise the recommendation's URN. The
      # postconditions above stop the plan when both are null.
      os_image          = var.os_images[name] != null ? var.os_images[name] : r.recommendations[0].deployment.cyclecloud.os_image
      recommended_image = r.recommendations[0].deployment.cyclecloud.os_image
      # A partition whose jobs run over InfiniBand across VMs stays in one
      # zone (its VMs share one InfiniBand fabric): the first zone given.
      availability_zones = r.recommendations[0].deployment.rdma_placement != null && var.availability_zones[name] != null ? slice(var.availability_zones[name], 0, 1) : var.availability_zones[name]
    }
  }

  # One HPCMaxScalesetSize serves the hpc and gpu node arrays: the smallest
  # limit either InfiniBand partition has (neither scale set may exceed its
  # size's span), unless given.
  ib_scaleset_sizes     = [for name in ["hpc", "gpu"] : local.partitions[name].max_scaleset_size if local.partitions[name].max_scaleset_size != null]
  hpc_max_scaleset_size = var.hpc_max_scaleset_size != null ? var.hpc_max_scaleset_size : (length(local.ib_scaleset_sizes) > 0 ? min(local.ib_scaleset_sizes...) : null)

  # HPCMaxScalesetSize of the cluster CycleCloud Workspace for Slurm
  # creates: it has no parameter for it.
  ccws_scaleset_size = 100

  # The InfiniBand partitions whose one job needs more VMs than that shared
  # value: CycleCloud would split the job across scale sets.
  ib_jobs_beyond_scaleset = [for name in ["hpc", "gpu"] : name if local.partitions[name].max_scaleset_size != null && local.partitions[name].nodes_per_job > coalesce(local.hpc_max_scaleset_size, 0)]

  # CycleCloud Workspace for Slurm: the hpc (hpc_t), gpu (hpc_t) and htc
  # (htc_t) parameters. availabilityZone only when zones are given: the
  # workspace turns on DefineNodesAvailabilityZone when any partition has the
  # field at all.
  ccws_partitions = {
    for name, p in local.partitions : name => {
      value = merge(
        { sku = p.machine_type, osImage = p.os_image, maxNodes = p.max_nodes },
        name == "htc" ? { useSpot = var.htc_use_spot } : {},
        p.availability_zones != null ? { availabilityZone = p.availability_zones } : {},
      )
    }
  }
  ccws_parameters = var.ccws_parameters == null ? null : merge(
    { for k, v in var.ccws_parameters : k => { value = v } },
    { location = { value = var.location }, adminPassword = { value = var.ccws_admin_password } },
    local.ccws_partitions,
  )

  # SubnetId as the Slurm template takes it (resource-group/vnet/subnet); a
  # full subnet ID is shortened as the workspace's create_cc_param.py does.
  subnet_parts     = var.cluster_subnet_id == null ? [] : split("/", var.cluster_subnet_id)
  cluster_subnet   = var.cluster_subnet_id == null ? null : (length(local.subnet_parts) >= 11 ? join("/", [local.subnet_parts[4], local.subnet_parts[8], local.subnet_parts[10]]) : var.cluster_subnet_id)
  zones_defined    = anytrue([for p in values(local.partitions) : p.availability_zones != null])
  cluster_required = { Region = var.location, SubnetId = local.cluster_subnet, Credentials = var.cyclecloud_credentials }

  # CycleCloud's Slurm cluster template parameters (templates/slurm.txt).
  # Null values are left out: the template's defaults apply.
  slurm_cluster_parameters = {
    for k, v in merge(local.cluster_required, {
      HPCMachineType              = local.partitions.hpc.machine_type
      GPUMachineType              = local.partitions.gpu.machine_type
      HTCMachineType              = local.partitions.htc.machine_type
      MaxHPCExecuteNodeCount      = local.partitions.hpc.max_nodes
      MaxGPUExecuteNodeCount      = local.partitions.gpu.max_nodes
      MaxHTCExecuteNodeCount      = local.partitions.htc.max_nodes
      HPCImageName                = local.partitions.hpc.os_image
      GPUImageName                = local.partitions.gpu.os_image
      HTCImageName                = local.partitions.htc.os_image
      HTCUseLowPrio               = var.htc_use_spot
      HPCMaxScalesetSize          = local.hpc_max_scaleset_size
      DefineNodesAvailabilityZone = local.zones_defined ? true : null
      HPCAvailabilityZone         = local.partitions.hpc.availability_zones
      GPUAvailabilityZone         = local.partitions.gpu.availability_zones
      HTCAvailabilityZone         = local.partitions.htc.availability_zones
    }) : k => v if v != null
  }
  slurm_cluster_missing_parameters = sort([for k, v in local.cluster_required : k if v == null])
}

resource "terraform_data" "scaleset_limits" {
  input = local.hpc_max_scaleset_size

  lifecycle {
    precondition {
      condition     = length(local.ib_jobs_beyond_scaleset) == 0
      error_message = "One ${join(" and one ", local.ib_jobs_beyond_scaleset)} job needs more VMs (${join(" and ", [for name in local.ib_jobs_beyond_scaleset : tostring(local.partitions[name].nodes_per_job)])}) than HPCMaxScalesetSize, ${coalesce(local.hpc_max_scaleset_size, 0)}: CycleCloud's Slurm template and the workspace take one value for the hpc and gpu node arrays, at most the smaller InfiniBand span of their sizes (${join(" and ", [for v in local.ib_scaleset_sizes : tostring(v)])} VMs). Deploy them as separate clusters, or lower the job with hpc_cores_per_job or prefer."
    }
  }
}

resource "azurerm_subscription_template_deployment" "ccws" {
  count = var.ccws_template_file == null ? 0 : 1

  name               = var.deployment_name
  location           = var.location
  template_content   = file(var.ccws_template_file)
  parameters_content = jsonencode(local.ccws_parameters)

  lifecycle {
    precondition {
      condition     = var.ccws_parameters != null && var.ccws_admin_password != null
      error_message = "Deploying the workspace (ccws_template_file is set) needs ccws_parameters and ccws_admin_password: its template requires adminUsername, adminPassword, key, ccVMName, ccVMSize, resourceGroup, schedFilesystem, sharedFilesystem, network, storagePrivateDnsZone, schedulerNode, loginNodes and tags besides what this module sizes."
    }
    # The workspace creates the cluster with HPCMaxScalesetSize = 100.
    precondition {
      condition     = alltrue([for name in ["hpc", "gpu"] : local.partitions[name].max_scaleset_size == null || local.partitions[name].nodes_per_job <= local.ccws_scaleset_size])
      error_message = "The workspace creates the cluster with HPCMaxScalesetSize = ${local.ccws_scaleset_size}, but one InfiniBand job needs ${join(" and ", [for name in ["hpc", "gpu"] : "${local.partitions[name].nodes_per_job} VMs (${name})" if local.partitions[name].max_scaleset_size != null])}: CycleCloud would split it across scale sets. Create the cluster from slurm_cluster_parameters_json instead, or lower the job."
    }
  }
}
