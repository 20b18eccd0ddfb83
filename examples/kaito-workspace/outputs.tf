output "vm_size" {
  description = "The Workspace's instance type: the recommended size."
  value       = local.kaito.instance_type
}

output "node_count" {
  description = "The Workspace's resource.count: the VMs of one copy for a preset, every VM of the layout for a template."
  value       = local.kaito.count
}

output "workspaces" {
  description = "The Workspaces created: one for each copy a preset serves, or the one template Workspace."
  value       = local.kaito.workspaces
}

output "preset_name" {
  description = "KAITO's preset for the model, or null when the Workspace runs vLLM from a template."
  value       = local.kaito.preset_name
}

output "workspace_yaml" {
  description = "The Workspace manifests (one YAML document each), for kubectl apply where Terraform does not manage the cluster's objects."
  value       = local.kaito.preset_name != null ? join("---\n", [for w in local.preset_workspaces : yamlencode(w)]) : yamlencode(local.template_workspace)
}

output "note" {
  description = "What KAITO needs beyond the manifest (a gated model's token secret, or the template)."
  value       = local.kaito.note
}
