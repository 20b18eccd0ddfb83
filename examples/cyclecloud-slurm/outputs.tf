output "partitions" {
  description = "Per partition (`hpc`, `gpu`, `htc`): `machine_type` (the one size its node array runs), `cpu_architecture`, `rdma` (the job uses InfiniBand), `nodes_per_job` (VMs one job needs), `max_nodes` (the partition's node limit), `max_scaleset_size` (the size's InfiniBand span, 300 VMs on the HPC series whose pages state it and 100 where none is stated, when the job uses InfiniBand across VMs and must stay in one scale set with a single placement group, else null), `os_image` (from `os_images`, else the recommendation's Marketplace URN), `recommended_image` (the recommendation's URN, null when none is documented) and `availability_zones`."
  value       = local.partitions
}

output "ccws_parameters_json" {
  description = "A deployment parameters file for CycleCloud Workspace for Slurm's template, complete: the `hpc`, `gpu` and `htc` partitions (its `hpc_t` and `htc_t` types), `location`, `adminPassword` and `ccws_parameters`. Null when `ccws_parameters` is null. Sensitive (it holds the password): `terraform output -raw ccws_parameters_json > parameters.json`, then `az deployment sub create --location <region> --template-file mainTemplate.json --parameters @parameters.json`."
  sensitive   = true
  value = local.ccws_parameters == null ? null : jsonencode({
    "$schema"      = "https://schema.management.azure.com/schemas/2019-04-01/deploymentParameters.json#"
    contentVersion = "1.0.0.0"
    parameters     = local.ccws_parameters
  })

  precondition {
    condition     = var.ccws_parameters == null || var.ccws_admin_password != null
    error_message = "ccws_parameters is set but ccws_admin_password is not: the workspace's template requires adminPassword."
  }
}

output "ccws_partitions_json" {
  description = "The workspace's `hpc`, `gpu` and `htc` parameters alone, as a deployment parameters fragment (`{ \"hpc\": { \"value\": { \"sku\", \"osImage\", \"maxNodes\", ... } }, ... }`), for merging into a parameters file made elsewhere. Not a complete parameters file: the template requires the parameters listed under `ccws_parameters` too."
  value       = jsonencode(local.ccws_partitions)
}

output "slurm_cluster_parameters_json" {
  description = "Parameters for CycleCloud's Slurm cluster template (templates/slurm.txt of Azure/cyclecloud-slurm): machine types, node limits, images, `HTCUseLowPrio`, `HPCMaxScalesetSize`, `Region`, availability zones when given, and `SubnetId` and `Credentials` when `cluster_subnet_id` and `cyclecloud_credentials` are set. Complete only when `slurm_cluster_missing_parameters` is empty; otherwise merge the missing ones in (see the README), then `cyclecloud create_cluster Slurm <cluster> -p slurm-params.json`."
  value       = jsonencode(local.slurm_cluster_parameters)
}

output "slurm_cluster_missing_parameters" {
  description = "Parameters the Slurm cluster template needs that `slurm_cluster_parameters_json` lacks (`Credentials`, `SubnetId`: they have no default there); empty when the file is complete."
  value       = local.slurm_cluster_missing_parameters
}

output "reasons" {
  description = "Per partition, why the size was chosen and what to watch."
  value = {
    for name, r in local.recommendations : name => {
      vm_size  = r.vm_size
      reasons  = r.recommendations[0].reasons
      warnings = r.recommendations[0].warnings
    }
  }
}

output "fallback_machine_types" {
  description = "Per partition, sizes you may switch the partition's one machine type to when the first lacks capacity or quota: the ranked sizes with the same CPU architecture and the same recommended image, the chosen size first (only the chosen size when it has no documented image). CycleCloud's hpc, gpu and htc node arrays each take a single machine type, so this is not a list to pass as one; computed for the recommended image, so with `os_images` set check that your image suits them."
  value       = { for name, r in local.recommendations : name => r.recommendations[0].deployment.cyclecloud.fallback_machine_types }
}

output "deployment_id" {
  description = "ID of the workspace deployment; null unless `ccws_template_file` is set."
  value       = one(azurerm_subscription_template_deployment.ccws[*].id)
}
