output "vm_size" {
  description = "The Workspace's instance type: the recommended size."
  value       = local.kaito.instance_type
}

output "node_count" {
  description = "The Workspace's resource.count: the VMs the layout takes."
  value       = local.kaito.count
}

output "preset_name" {
  description = "KAITO's preset for the model, or null when the Workspace runs vLLM from a template."
  value       = local.kaito.preset_name
}

output "workspace_yaml" {
  description = "The Workspace manifest, for kubectl apply where Terraform does not manage the cluster's objects."
  value       = local.kaito.preset_name != null ? yamlencode(local.preset_workspace) : yamlencode(local.template_workspace)
}

output "note" {
  description = "What KAITO needs beyond the manifest (a gated model's token secret, or the template)."
  value       = local.kaito.note
}
