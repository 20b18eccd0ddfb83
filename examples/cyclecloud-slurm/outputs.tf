output "partitions" {
  description = "Per partition: machine type, the Slurm `hpc` flag, nodes per job, node limit and image."
  value       = local.partitions
}

output "ccws_parameters_json" {
  description = "A deployment parameters file for CycleCloud Workspace for Slurm: `terraform output -raw ccws_parameters_json > parameters.json`, then `az deployment sub create --template-file mainTemplate.json --parameters @parameters.json --location <region>`."
  value = jsonencode({
    "$schema"      = "https://schema.management.azure.com/schemas/2019-04-01/deploymentParameters.json#"
    contentVersion = "1.0.0.0"
    parameters     = local.ccws_parameters
  })
}

output "slurm_cluster_parameters_json" {
  description = "Parameters for CycleCloud's Slurm cluster template: `terraform output -raw slurm_cluster_parameters_json > slurm-params.json`, then `cyclecloud create_cluster Slurm <cluster> -p slurm-params.json`."
  value       = jsonencode(local.slurm_cluster_parameters)
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
  description = "Per partition, the ranked sizes, for CycleCloud's multi-select machine type lists and capacity fallbacks."
  value       = { for name, r in local.recommendations : name => r.vm_sizes }
}

output "deployment_id" {
  description = "ID of the workspace deployment; null unless `ccws_template_file` is set."
  value       = one(azurerm_subscription_template_deployment.ccws[*].id)
}
