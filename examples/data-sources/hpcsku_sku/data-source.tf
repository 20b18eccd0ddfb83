# Look up one size: GPU, CUDA, InfiniBand, price and lifecycle facts.
data "hpcsku_sku" "h100" {
  name   = "Standard_ND96isr_H100_v5"
  region = "eastus"
}

output "h100" {
  value = {
    gpus               = "${data.hpcsku_sku.h100.sku.gpu.count} x ${data.hpcsku_sku.h100.sku.gpu.model}"
    compute_capability = data.hpcsku_sku.h100.sku.gpu.compute_capability
    newest_cuda_major  = data.hpcsku_sku.h100.sku.gpu.max_cuda_major
    infiniband         = data.hpcsku_sku.h100.sku.network.infiniband
    usd_per_hour       = data.hpcsku_sku.h100.sku.price.usd_per_hour
    image              = data.hpcsku_sku.h100.sku.image.urn
  }
}

# Guard a size a configuration already uses: fail the plan once it is retired.
data "hpcsku_sku" "pinned" {
  name = "Standard_NC24ads_A100_v4"

  lifecycle {
    postcondition {
      condition     = !self.retired
      error_message = "${self.sku.name} is retired; move to one of: ${join(", ", self.replacements)}."
    }
  }
}
