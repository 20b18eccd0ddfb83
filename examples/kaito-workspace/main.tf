# Serves a model on AKS with KAITO (the AI toolchain operator add-on): the
# recommendation ranks only the sizes of the SKU table of the KAITO version
# the add-on ships, and deployment.aks.kaito gives the Workspace's instance
# type, node count, label selector and preset, and how many Workspaces
# serve the layout. KAITO's gpu-provisioner
# creates the nodes; no node pool is declared here.
data "hpcsku_recommendation" "serve" {
  workload                   = "inference"
  model                      = var.model
  target                     = "kaito"
  region                     = var.location
  requests_per_second        = var.requests_per_second
  max_time_to_first_token_ms = var.max_time_to_first_token_ms

  lifecycle {
    # A copy over several VMs that no preset serves has no Workspace: a
    # template's pods get no rank or head address. The note names what runs it.
    postcondition {
      condition     = self.recommendations[0].deployment.aks.kaito.workspaces > 0
      error_message = self.recommendations[0].deployment.aks.kaito.note
    }
  }
}

locals {
  top   = data.hpcsku_recommendation.serve.recommendations[0]
  kaito = local.top.deployment.aks.kaito

  metadata = { name = var.name, namespace = var.namespace }
  resource = {
    instanceType  = local.kaito.instance_type
    count         = local.kaito.count
    labelSelector = { matchLabels = local.kaito.label_selector }
  }

  # A preset (KAITO's own image and settings), with the token secret of a
  # gated model.
  preset_workspace = {
    apiVersion = "kaito.sh/v1beta1"
    kind       = "Workspace"
    metadata   = local.metadata
    resource   = local.resource
    inference = {
      preset = merge(
        { name = coalesce(local.kaito.preset_name, "none") },
        var.model_access_secret == null ? {} : { presetOptions = { modelAccessSecret = var.model_access_secret } },
      )
    }
  }

  # A preset Workspace serves one copy of the model: a layout of several
  # copies takes one Workspace for each (kaito.workspaces), named name-0,
  # name-1, ...
  preset_workspaces = local.kaito.preset_name == null ? [] : [
    for i in range(local.kaito.workspaces) : merge(local.preset_workspace, {
      metadata = merge(local.metadata, local.kaito.workspaces > 1 ? { name = "${var.name}-${i}" } : {})
    })
  ]

  # No preset: a pod template running vLLM with the recommendation's
  # arguments (the layout the estimate used).
  template_workspace = {
    apiVersion = "kaito.sh/v1beta1"
    kind       = "Workspace"
    metadata   = local.metadata
    resource   = local.resource
    inference = {
      template = {
        spec = {
          containers = [{
            name  = "vllm"
            image = var.vllm_image
            args  = concat(["--model=${coalesce(var.hugging_face_model, "unset")}"], coalesce(local.top.deployment.serving.vllm_args, []))
            ports = [{ containerPort = 8000 }]
            resources = {
              limits = { "nvidia.com/gpu" = tostring(local.top.gpus_per_node) }
            }
          }]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "preset" {
  count    = length(local.preset_workspaces)
  manifest = local.preset_workspaces[count.index]
}

resource "kubernetes_manifest" "template" {
  count    = local.kaito.preset_name == null ? 1 : 0
  manifest = local.template_workspace

  lifecycle {
    precondition {
      condition     = var.hugging_face_model != null
      error_message = "${local.kaito.note} Set hugging_face_model to the model the vLLM pod serves."
    }
  }
}
