// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package recommend

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/catalog"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/deploy"
	"github.com/hpcsku/terraform-provider-hpcsku/internal/perfmodel"
)

// checkDeployments holds for every result the tests rank: each
// recommendation's deployment settings follow from its size, its layout and
// the request, whatever the ranking.
func checkDeployments(t *testing.T, req Request, res *Result) {
	t.Helper()
	target := req.Target
	if target == "" {
		target = DefaultTarget
	}
	for _, r := range res.Recommendations {
		c := deploymentCheck{t: t, req: req, res: res, target: target, r: r}
		c.image()
		c.security()
		c.placement()
		c.targetObjects()
		c.aks()
		c.cycleCloud()
		c.azureML()
		c.batch()
	}
}

// deploymentCheck checks the deployment settings of one recommendation of
// a result, each method one concern of checkDeployments.
type deploymentCheck struct {
	t      *testing.T
	req    Request
	res    *Result
	target string // the request's target, or the default one
	r      Recommendation
}

// onSpot reports whether the layout runs on Spot VMs: the request asks for
// them, unless Azure sells none of the size in its price region (D75).
func (c *deploymentCheck) onSpot() bool {
	p := c.r.SKU.Prices[c.r.PriceRegion]
	return c.req.Spot && (!p.NoSpot || c.r.PriceIsSpot)
}

// fail reports a defect of the recommendation's deployment settings.
func (c *deploymentCheck) fail(format string, args ...any) {
	c.t.Helper()
	c.t.Errorf("%s (target %s): "+format, append([]any{c.r.VMSize, c.target}, args...)...)
}

// wantURN is the image the deployment should name: the catalog's URN, or
// nothing when the size has no image or a confidential size's image does
// not boot as a confidential VM.
func (c *deploymentCheck) wantURN() string {
	s := c.r.SKU
	if s.Image != nil && (!s.Confidential || s.Image.ConfidentialVM) {
		return s.Image.URN
	}
	return ""
}

// sameArch is the recommendation's size and the other ranked sizes of its
// architecture, in rank order after it.
func (c *deploymentCheck) sameArch() []string {
	out := []string{c.r.VMSize}
	for _, o := range c.res.Recommendations {
		if o.VMSize != c.r.VMSize && o.SKU.Arch == c.r.SKU.Arch {
			out = append(out, o.VMSize)
		}
	}
	return out
}

// image: the catalog's URN with its source's locator (a source without
// its note), or nothing.
func (c *deploymentCheck) image() {
	c.t.Helper()
	d, s := c.r.Deployment, c.r.SKU
	wantURN := c.wantURN()
	if d.ImageURN != wantURN || (d.ImageURN == "") != (d.ImageSource == "") || d.CPUArchitecture != s.Arch {
		c.fail("image %q from %q on %q, catalog %q on %q", d.ImageURN, d.ImageSource, d.CPUArchitecture, wantURN, s.Arch)
	}
	if src, err := catalog.ParseSource(d.ImageSource); d.ImageSource != "" && (err != nil || src.Note != "" || !strings.HasPrefix(s.Image.URNSource, d.ImageSource)) {
		c.fail("image source %q: want the locator of %q", d.ImageSource, s.Image.URNSource)
	}
}

// security: confidential sizes boot as confidential VMs, with secure boot,
// vTPM and the guest state encrypted with the disk (D57).
func (c *deploymentCheck) security() {
	c.t.Helper()
	d, s := c.r.Deployment, c.r.SKU
	if conf := s.Confidential; (d.SecurityType == deploy.SecurityTypeConfidentialVM) != conf || d.VTPMEnabled != conf || d.SecureBootEnabled != conf ||
		(d.OSDiskSecurityEncryptionType == deploy.OSDiskEncryptionVMGuestState) != conf || (!conf && (d.SecurityType != "" || d.OSDiskSecurityEncryptionType != "")) ||
		(conf && d.ImageURN != "" && !s.Image.ConfidentialVM) {
		c.fail("security %q, vTPM %v, secure boot %v, OS disk %q on a confidential size %v, image %q", d.SecurityType, d.VTPMEnabled, d.SecureBootEnabled, d.OSDiskSecurityEncryptionType, conf, d.ImageURN)
	}
}

// placement: InfiniBand placement only for RDMA across VMs; an
// availability set for plain on-demand VMs (but the rack-scale series,
// which Azure places in a scale set's interconnect block on any target,
// and Spot VMs, which Azure refuses in an availability set), a
// single-placement-group scale set otherwise, one job never over the
// size's InfiniBand span (a served model's copies are separate jobs,
// ibJobVMs).
func (c *deploymentCheck) placement() {
	c.t.Helper()
	d, s, r := c.r.Deployment, c.r.SKU, c.r
	switch {
	case d.RDMAPlacement != "" && (!d.RDMA || r.Nodes < 2 || ibJobVMs(c.req, r) > s.MaxJobVMs()):
		c.fail("placement %q with RDMA %v on %d VMs, %d a job", d.RDMAPlacement, d.RDMA, r.Nodes, ibJobVMs(c.req, r))
	case d.RDMAPlacement != "" && (d.RDMAPlacement == deploy.PlacementAvailabilitySet) != (c.target == TargetVM && s.Placement == nil && !c.req.Spot):
		c.fail("placement %q", d.RDMAPlacement)
	case d.SinglePlacementGroup != (d.RDMAPlacement == deploy.PlacementScaleSet && (s.Placement == nil || s.Placement.SinglePlacementGroup)):
		c.fail("single placement group %v with placement %q", d.SinglePlacementGroup, d.RDMAPlacement)
	case (d.Interconnect != nil) != (s.Placement != nil && d.RDMAPlacement != "" && c.target == TargetVMSS):
		// The interconnect is a scale set's, so only target vmss has it.
		c.fail("interconnect %+v with placement %q on target %s", d.Interconnect, d.RDMAPlacement, c.target)
	case d.RDMAPlacement != "" && (c.target == TargetVM || c.target == TargetVMSS) && !strings.Contains(d.Note, "172.16.0.0/16"):
		c.fail("InfiniBand across VMs without the RDMA address space note: %q", d.Note)
	case d.Interconnect != nil && (d.Interconnect.InterconnectBlockCapacity != d.Interconnect.Racks*d.Interconnect.RackVMs || d.Interconnect.InterconnectBlockCapacity < r.Nodes ||
		(c.req.Nodes == nil && d.Interconnect.InterconnectBlockCapacity != r.Nodes) || !strings.Contains(d.Interconnect.Note, "azapi")):
		// A job laid out by the engine takes whole racks (D55); a
		// nodes setting is kept as given.
		c.fail("interconnect %+v on %d VMs", d.Interconnect, r.Nodes)
	case d.RDMA && !s.Network.RDMA:
		c.fail("RDMA on a size without it")
	}
}

// targetObjects: the settings of the target, and of no other.
func (c *deploymentCheck) targetObjects() {
	c.t.Helper()
	d, target := c.r.Deployment, c.target
	onAKS := target == TargetAKS || target == TargetKAITO
	if (d.AKS != nil) != onAKS || (d.CycleCloud != nil) != (target == TargetCycleCloud) ||
		(d.AzureML != nil) != (target == TargetAzureML) || (d.Batch != nil) != (target == TargetBatch) ||
		(onAKS && (d.AKS.KAITO != nil) != (target == TargetKAITO)) {
		c.fail("target objects %+v", d)
	}
}

// aks: the GPU driver, taints and labels of the node pool, node
// auto-provisioning, and the InfiniBand feature registration.
func (c *deploymentCheck) aks() {
	c.t.Helper()
	d, s, a := c.r.Deployment, c.r.SKU, c.r.Deployment.AKS
	if a == nil {
		return
	}
	isGPU := s.GPU != nil
	wantDriver := ""
	if isGPU {
		wantDriver = deploy.GPUDriverInstall
		// D56: AKS installs no driver on AMD or arm64 GPUs; a confidential
		// GPU needs the GPU Operator's signed driver.
		if s.GPU.Vendor == catalog.VendorAMD || s.Arch == "arm64" || s.Confidential {
			wantDriver = deploy.GPUDriverNone
		}
	}
	spot := c.onSpot()
	if a.GPUDriver != wantDriver || (len(a.NodeTaints) > 0) != (isGPU || spot) || a.NodeLabels[deploy.LabelVMSize] != c.r.VMSize ||
		(a.OSSKU == deploy.OSSKUUbuntu2404) != (isGPU && (s.Confidential || s.Placement != nil)) {
		c.fail("AKS driver %q, taints %v, labels %v, os_sku %q", a.GPUDriver, a.NodeTaints, a.NodeLabels, a.OSSKU)
	}
	for k := range a.NodeLabels {
		if k != deploy.LabelVMSize && k != deploy.LabelGPUModel && (k != deploy.LabelSpotPriority || !spot) {
			c.fail("AKS label %q", k)
		}
	}
	if spot != (a.Spot != nil) || spot && (a.Spot.Priority != "Spot" || !slices.Contains(a.NodeTaints, deploy.AKSSpotTaint) || a.NodeLabels[deploy.LabelSpotPriority] != "spot" ||
		(a.Spot.NodeAutoProvisioning != nil) != (a.NodeAutoProvisioning != nil)) {
		c.fail("AKS spot %+v with spot %v, taints %v, labels %v", a.Spot, spot, a.NodeTaints, a.NodeLabels)
	}
	c.aksNodeAutoProvisioning()
	if d.RDMA && !strings.Contains(a.Note, "AKSInfinibandSupport") {
		c.fail("AKS note %q does not name the InfiniBand feature registration", a.Note)
	}
}

// aksNodeAutoProvisioning: none where it cannot place the job (InfiniBand
// across VMs, AMD GPUs, constrained cores; D56), with a note saying so;
// elsewhere the ranked sizes of the same architecture it can place, this
// one first.
func (c *deploymentCheck) aksNodeAutoProvisioning() {
	c.t.Helper()
	d, s, a := c.r.Deployment, c.r.SKU, c.r.Deployment.AKS
	nap := a.NodeAutoProvisioning
	cannot := (d.RDMA && d.RDMAPlacement != "") || (s.GPU != nil && s.GPU.Vendor == catalog.VendorAMD) || s.QuotaVCPUs != nil || s.NoNodeAutoProvisioning
	switch {
	case cannot != (nap == nil) || cannot != strings.Contains(a.Note, "Node auto-provisioning cannot place"):
		c.fail("node auto-provisioning %+v, note %q; want none exactly where it cannot place the job (%v)", nap, a.Note, cannot)
	case nap != nil:
		var want []string
		for _, n := range c.sameArch() {
			if o := byName(c.res, n); o.Deployment.AKS.NodeAutoProvisioning != nil {
				want = append(want, n)
			}
		}
		if nap.Key != deploy.AKSSizeLabel || nap.Operator != "In" || !slices.Equal(nap.Values, want) {
			c.fail("node auto-provisioning %+v, want the ranked %s sizes it can place %v", nap, s.Arch, want)
		}
	}
}

// cycleCloud: the node array's size, image, counts, fallbacks and
// partition; a scale set with a single placement group is limited to the
// size's InfiniBand span and holds the job.
func (c *deploymentCheck) cycleCloud() {
	c.t.Helper()
	d, r, cc := c.r.Deployment, c.r, c.r.Deployment.CycleCloud
	if cc == nil {
		return
	}
	span := r.SKU.MaxJobVMs()
	if cc.MachineType != r.VMSize || cc.OSImage != d.ImageURN || cc.MaxNodes != r.Nodes ||
		(cc.MaxScaleSetSize != 0) != d.SinglePlacementGroup || (cc.MaxScaleSetSize != 0 && (cc.MaxScaleSetSize != span || cc.MaxNodes > span)) {
		c.fail("CycleCloud %+v", cc)
	}
	want := []string{r.VMSize}
	if cc.OSImage != "" {
		want = c.sameArchWithImage(cc.OSImage)
	}
	if !slices.Equal(cc.FallbackMachineTypes, want) {
		c.fail("fallbacks %v, want %v", cc.FallbackMachineTypes, want)
	}
	wantPartition := deploy.PartitionHTC
	if c.req.Workload == WorkloadHPC {
		wantPartition = deploy.PartitionHPC
	} else if r.SKU.GPU != nil {
		wantPartition = deploy.PartitionGPU
	}
	if cc.Partition != wantPartition {
		c.fail("partition %q, want %q", cc.Partition, wantPartition)
	}
}

// sameArchWithImage is sameArch restricted to the sizes whose deployment
// names the image urn.
func (c *deploymentCheck) sameArchWithImage(urn string) []string {
	var want []string
	for _, n := range c.sameArch() {
		for _, o := range c.res.Recommendations {
			if o.VMSize == n && o.Deployment.ImageURN == urn {
				want = append(want, n)
			}
		}
	}
	return want
}

// azureML: the compute cluster's size, priority and node count.
func (c *deploymentCheck) azureML() {
	c.t.Helper()
	m := c.r.Deployment.AzureML
	if m == nil {
		return
	}
	want := deploy.AzureMLDeployment{VMSize: c.r.VMSize, VMPriority: deploy.AzureMLDedicated, MaxNodeCount: c.r.Nodes}
	if c.onSpot() {
		want.VMPriority = deploy.AzureMLLowPriority
	}
	if *m != want {
		c.fail("Azure ML %+v, want %+v", *m, want)
	}
}

// batch: the pool's size, node counts, image, node agent, inter-node
// communication and note.
func (c *deploymentCheck) batch() {
	c.t.Helper()
	d, s, r, b := c.r.Deployment, c.r.SKU, c.r, c.r.Deployment.Batch
	if b == nil {
		return
	}
	dedicated, spot := r.Nodes, int64(0)
	if c.onSpot() {
		dedicated, spot = 0, r.Nodes
	}
	hasImage := c.wantURN() != ""
	hasAgent := hasImage && s.Image.BatchNodeAgentSKUID != ""
	if b.VMSize != r.VMSize || b.TargetDedicatedNodes != dedicated || b.TargetLowPriorityNodes != spot ||
		(b.Image != nil) != hasImage || (b.NodeAgentSKUID != "") != hasAgent || (hasImage && !hasAgent && !strings.Contains(b.Note, "supported-images")) ||
		(b.Image != nil && strings.Join([]string{b.Image.Publisher, b.Image.Offer, b.Image.SKU, b.Image.Version}, ":") != d.ImageURN) ||
		(b.InterNodeCommunication == deploy.BatchInterNodeEnabled && r.Nodes < 2) ||
		(b.InterNodeCommunication != deploy.BatchInterNodeEnabled && b.InterNodeCommunication != deploy.BatchInterNodeDisabled) ||
		(d.RDMAPlacement != "" && b.InterNodeCommunication != deploy.BatchInterNodeEnabled) ||
		(c.req.Workload == WorkloadHTC && b.InterNodeCommunication != deploy.BatchInterNodeDisabled) ||
		(b.InterNodeCommunication == deploy.BatchInterNodeEnabled && r.Nodes > batchPoolNodes(c.req.Spot)) {
		c.fail("Batch %+v, image %+v", b, b.Image)
	}
	// An MPI pool's limit is said for both pool allocation modes.
	if enabled := b.InterNodeCommunication == deploy.BatchInterNodeEnabled; enabled != strings.Contains(b.Note, "100 nodes") || enabled != strings.Contains(b.Note, "80 in user-subscription") {
		c.fail("Batch note %q with inter-node communication %s", b.Note, b.InterNodeCommunication)
	}
}

// The settings per target on the fixture catalog, each case a defect the
// earlier settings had.
func TestDeploymentPerTarget(t *testing.T) {
	cat := fixture(t)
	t.Run("aks", func(t *testing.T) { testDeploymentAKS(t, cat) })
	t.Run("cyclecloud", func(t *testing.T) { testDeploymentCycleCloud(t, cat) })
	t.Run("infiniband placement", func(t *testing.T) { testDeploymentPlacement(t, cat) })
	t.Run("azureml", func(t *testing.T) { testDeploymentAzureML(t, cat) })
	t.Run("batch", func(t *testing.T) { testDeploymentBatch(t, cat) })
}

// testDeploymentAKS: the node pools of a GPU and a CPU size.
func testDeploymentAKS(t *testing.T, cat *catalog.Catalog) {
	// AKS, NVIDIA: the T4 pool for a 1.3B model. The labels no longer
	// carry the deprecated "accelerator" key; node auto-provisioning gets
	// every ranked size (all x86_64), this one first.
	res := mustRecommendOn(t, cat, Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, Target: "aks", AsOf: asOf})
	d := res.Recommendations[0].Deployment
	// The catalog names no image for the T4 series. The engines serve one
	// copy on the T4 at the estimate's batch and the requirements' context.
	seqs, ctx := strconv.FormatInt(*res.Recommendations[0].Estimate.SequencesPerCopy, 10), strconv.FormatInt(res.Requirements.ContextTokens, 10)
	want := deploy.Deployment{
		CPUArchitecture:       "x86_64",
		AcceleratedNetworking: true,
		Serving: &deploy.ServingDeployment{
			VLLMArgs:   []string{"--tensor-parallel-size=1", "--max-num-seqs=" + seqs, "--max-model-len=" + ctx},
			SGLangArgs: []string{"--tp-size=1", "--max-running-requests=" + seqs, "--context-length=" + ctx, "--mem-fraction-static=0.9"},
		},
		AKS: &deploy.AKSDeployment{
			NodeTaints:           []string{"sku=gpu:NoSchedule"},
			NodeLabels:           map[string]string{"hpcsku.io/vm-size": "Standard_NC4as_T4_v3", "hpcsku.io/gpu-model": "t4"},
			GPUDriver:            "Install",
			NodeAutoProvisioning: &deploy.NodeRequirement{Key: "karpenter.azure.com/sku-name", Operator: "In", Values: napNames(res)},
			Note:                 "AKS installs the NVIDIA driver; deploy the NVIDIA device plugin or GPU Operator for nvidia.com/gpu; pods tolerate sku=gpu:NoSchedule.",
		},
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("deployment\n got  %+v %+v\n want %+v %+v", d, d.AKS, want, want.AKS)
	}
	if v := want.AKS.NodeAutoProvisioning.Values; len(v) < 2 || v[0] != "Standard_NC4as_T4_v3" {
		t.Errorf("node auto-provisioning values %v", want.AKS.NodeAutoProvisioning.Values)
	}

	// AKS, CPU: no taint and no gpu_driver at all (azurerm accepts only
	// Install or None; the empty string failed the plan).
	res = mustRecommendOn(t, cat, Request{Workload: "hpc", Target: "aks", AsOf: asOf})
	a := res.Recommendations[0].Deployment.AKS
	if a.GPUDriver != "" || len(a.NodeTaints) != 0 || !reflect.DeepEqual(a.NodeLabels, map[string]string{"hpcsku.io/vm-size": "Standard_HB120rs_v3"}) {
		t.Errorf("AKS %+v", a)
	}
}

// testDeploymentCycleCloud: a multi-VM InfiniBand training job and an htc
// job that leaves InfiniBand unused.
func testDeploymentCycleCloud(t *testing.T, cat *catalog.Catalog) {
	// CycleCloud, 70B pretraining on NVIDIA: 72 H100 VMs over InfiniBand
	// (see TestScaleUpBeforeScaleOut for the count): the gpu partition in
	// one scale set of at most 100 VMs, its image, and the ranked sizes
	// that share that image as fallbacks.
	res := mustRecommendOn(t, cat, Request{Workload: "training", Model: &Model{ParametersBillion: 70}, GPUVendor: "nvidia", Target: "cyclecloud", AsOf: asOf})
	top := res.Recommendations[0]
	cc := top.Deployment.CycleCloud
	if top.VMSize != "Standard_ND96isr_H100_v5" || top.Nodes != 72 || top.Deployment.RDMAPlacement != deploy.PlacementScaleSet || !top.Deployment.SinglePlacementGroup ||
		cc.Partition != "gpu" || cc.MachineType != top.VMSize || cc.OSImage != "microsoft-dsvm:ubuntu-hpc:2404:latest" || cc.MaxNodes != 72 || cc.MaxScaleSetSize != 100 {
		t.Errorf("top %s on %d VMs, %+v, CycleCloud %+v", top.VMSize, top.Nodes, top.Deployment, cc)
	}
	if cc.FallbackMachineTypes[0] != top.VMSize || slices.Contains(cc.FallbackMachineTypes, "Standard_ND40rs_v2") {
		t.Errorf("fallbacks %v: the V100 size has another image", cc.FallbackMachineTypes)
	}
	// htc on 2,000 cores: the HBv3's InfiniBand stays unused: no RDMA, no
	// placement, htc partition without a scale set limit.
	res = mustRecommendOn(t, cat, Request{Workload: "htc", Cores: i64(2000), Target: "cyclecloud", AsOf: asOf})
	top = res.Recommendations[0]
	if cc := top.Deployment.CycleCloud; top.VMSize != "Standard_HB120rs_v3" || top.Nodes != 17 || top.Deployment.RDMA || top.Deployment.RDMAPlacement != "" ||
		cc.Partition != "htc" || cc.MaxNodes != 17 || cc.MaxScaleSetSize != 0 {
		t.Errorf("top %s %d %+v %+v", top.VMSize, top.Nodes, top.Deployment, cc)
	}
}

// testDeploymentPlacement: the InfiniBand placement of a multi-VM job on
// each target, and the limit of one placement group.
func testDeploymentPlacement(t *testing.T, cat *catalog.Catalog) {
	// The same multi-VM InfiniBand job as plain VMs: one availability set.
	for target, placement := range map[string]string{"vm": deploy.PlacementAvailabilitySet, "vmss": deploy.PlacementScaleSet, "batch": deploy.PlacementScaleSet, "azureml": deploy.PlacementScaleSet, "aks": deploy.PlacementScaleSet} {
		res := mustRecommendOn(t, cat, Request{Workload: "hpc", Cores: i64(1000), Target: target, AsOf: asOf})
		top := res.Recommendations[0]
		if top.Nodes < 2 || !top.Deployment.RDMA || top.Deployment.RDMAPlacement != placement || top.Deployment.SinglePlacementGroup != (placement == deploy.PlacementScaleSet) {
			t.Errorf("%s: %s on %d VMs, %+v", target, top.VMSize, top.Nodes, top.Deployment)
		}
	}
	// More than 100 VMs cannot share one InfiniBand placement group.
	nf := mustNoFitOn(t, cat, Request{Workload: "hpc", Nodes: i64(101), Target: "vmss", AsOf: asOf, Interconnect: "infiniband"})
	if counts := rejectedCounts(nf.Rejected); counts["nodes"] == 0 {
		t.Errorf("101 InfiniBand VMs: rejections %+v", nf.Rejected)
	}
}

// testDeploymentAzureML: Azure ML on spot: LowPriority, as many nodes as
// the layout.
func testDeploymentAzureML(t *testing.T, cat *catalog.Catalog) {
	res := mustRecommendOn(t, cat, Request{Workload: "hpc", Cores: i64(1000), Target: "azureml", Spot: true, AsOf: asOf})
	top := res.Recommendations[0]
	if m := top.Deployment.AzureML; *m != (deploy.AzureMLDeployment{VMSize: top.VMSize, VMPriority: "LowPriority", MinNodeCount: 0, MaxNodeCount: top.Nodes}) || top.Nodes < 2 {
		t.Errorf("Azure ML %+v on %d VMs", m, top.Nodes)
	}
}

// testDeploymentBatch: Batch pools for MPI across VMs, for htc on more VMs
// than an MPI pool holds, and on spot.
func testDeploymentBatch(t *testing.T, cat *catalog.Catalog) {
	// Batch, MPI across VMs: inter-node communication, the image split into
	// its parts and the Ubuntu 24.04 node agent.
	res := mustRecommendOn(t, cat, Request{Workload: "hpc", Cores: i64(1000), Target: "batch", AsOf: asOf})
	top := res.Recommendations[0]
	b := top.Deployment.Batch
	if b.InterNodeCommunication != "Enabled" || b.NodeAgentSKUID != "batch.node.ubuntu 24.04" || b.TargetDedicatedNodes != top.Nodes || b.TargetLowPriorityNodes != 0 ||
		!reflect.DeepEqual(b.Image, &deploy.ImageReference{Publisher: "microsoft-dsvm", Offer: "ubuntu-hpc", SKU: "2404", Version: "latest"}) {
		t.Errorf("Batch %+v %+v on %d VMs", b, b.Image, top.Nodes)
	}
	// Batch, htc on more VMs than an MPI pool holds: independent tasks need
	// no inter-node communication, so the pool is neither capped at the
	// InfiniBand limit nor told it is.
	req := Request{Workload: "htc", Cores: i64(20000), Target: "batch", AsOf: asOf}
	res = mustRecommendOn(t, cat, req)
	checkDeployments(t, req, res)
	top = res.Recommendations[0]
	if b := top.Deployment.Batch; top.Nodes <= MaxNodesRDMA || b.InterNodeCommunication != "Disabled" || top.Deployment.RDMA {
		t.Errorf("htc: %s on %d VMs, Batch %+v", top.VMSize, top.Nodes, b)
	}
	// Batch on spot, one VM: Spot nodes, no inter-node communication, and
	// the allocation mode Spot needs.
	res = mustRecommendOn(t, cat, Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, Target: "batch", Spot: true, AsOf: asOf})
	top = res.Recommendations[0]
	b = top.Deployment.Batch
	if b.InterNodeCommunication != "Disabled" || b.TargetDedicatedNodes != 0 || b.TargetLowPriorityNodes != top.Nodes || !strings.Contains(b.Note, "UserSubscription") {
		t.Errorf("Batch %+v", b)
	}
}

// Batch on the MI300X: the ROCm image, for which Batch's sources name no
// node agent: the image reference without one, and a note saying how to
// find it.
func TestDeploymentBatchImageWithoutAgent(t *testing.T) {
	res := mustRecommendOn(t, fixture(t), Request{Workload: "training", Model: &Model{ParametersBillion: 7}, GPUVendor: "amd", Target: "batch", AsOf: asOf})
	top := res.Recommendations[0]
	b := top.Deployment.Batch
	if top.VMSize != "Standard_ND96isr_MI300X_v5" || b.NodeAgentSKUID != "" || !strings.Contains(b.Note, "az batch pool supported-images list") ||
		!reflect.DeepEqual(b.Image, &deploy.ImageReference{Publisher: "microsoft-dsvm", Offer: "ubuntu-hpc", SKU: "2404-rocm", Version: "latest"}) {
		t.Errorf("%s: Batch %+v, image %+v", top.VMSize, b, b.Image)
	}
}

// Images: the NC RTX PRO 6000 v6 has no Marketplace URN (the generic
// Ubuntu-HPC image lacks the GRID driver it needs), so every target gets
// none, Batch no image or agent, CycleCloud no fallbacks; the GB200 gets the
// arm64 2404-gb image, documented by the Compute API example (D54), and on
// Batch no node agent, since Batch's support of it is unconfirmed.
func TestDeploymentImages(t *testing.T) {
	cat := testCatalog(t)
	if s, ok := cat.Lookup("Standard_NC24lds_xl_RTXPRO6000BSE_v6"); !ok || s.Image == nil || s.Image.URN != "" {
		t.Errorf("Standard_NC24lds_xl_RTXPRO6000BSE_v6: image %+v, want a build without a URN", s)
	}
	gb, _ := cat.Lookup("Standard_ND128isr_NDR_GB200_v6")
	if gb.Arch != "arm64" || gb.Image.Arch != "arm64" {
		t.Errorf("GB200: %s, image %s", gb.Arch, gb.Image.Arch)
	}
	res := mustRecommend(t, Request{Workload: "training", Model: &Model{ParametersBillion: 8}, Prefer: []string{gb.Name}, Target: "batch", AsOf: asOf})
	top := res.Recommendations[0]
	if b := top.Deployment.Batch; top.VMSize != gb.Name || top.Deployment.ImageURN != "microsoft-dsvm:ubuntu-hpc:2404-gb:latest" ||
		!strings.Contains(top.Deployment.ImageSource, "WithInterconnectBlock") || b.NodeAgentSKUID != "" || b.Image == nil || b.Image.SKU != "2404-gb" ||
		!strings.Contains(b.Note, "az batch pool supported-images list") {
		t.Errorf("%s: image %q from %q, Batch %+v", top.VMSize, top.Deployment.ImageURN, top.Deployment.ImageSource, top.Deployment.Batch)
	}
	for _, target := range []string{"batch", "cyclecloud", "vm"} {
		res := mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 8}, Prefer: []string{"Standard_NC24lds_xl_RTXPRO6000BSE_v6"}, Target: target, AsOf: asOf})
		top := res.Recommendations[0]
		if top.VMSize != "Standard_NC24lds_xl_RTXPRO6000BSE_v6" || top.Deployment.ImageURN != "" || top.Deployment.ImageSource != "" {
			t.Errorf("%s: %s, image %q", target, top.VMSize, top.Deployment.ImageURN)
			continue
		}
		if b := top.Deployment.Batch; b != nil && (b.Image != nil || b.NodeAgentSKUID != "" || !strings.Contains(b.Note, "No Marketplace image is documented")) {
			t.Errorf("Batch %+v", b)
		}
		if cc := top.Deployment.CycleCloud; cc != nil && (cc.OSImage != "" || !slices.Equal(cc.FallbackMachineTypes, []string{top.VMSize})) {
			t.Errorf("CycleCloud %+v", cc)
		}
	}
}

// napNames are the ranked sizes node auto-provisioning can place (D56):
// every ranked size but the AMD GPU, multi-VM InfiniBand and
// constrained-core ones.
func napNames(res *Result) []string {
	var out []string
	for _, r := range res.Recommendations {
		amd := r.SKU.GPU != nil && r.SKU.GPU.Vendor == catalog.VendorAMD
		if !amd && r.SKU.QuotaVCPUs == nil && (!r.Deployment.RDMA || r.Deployment.RDMAPlacement == "") {
			out = append(out, r.VMSize)
		}
	}
	return out
}

// GB200 and GB300 across VMs (D55): a job that spans VMs takes whole racks
// of 18, says so, and prices and times every VM; their scale sets get no
// single placement group and the interconnect settings; a job one VM holds
// stays on one VM; a nodes setting is kept, with a warning.
func TestRackScaleLayouts(t *testing.T) {
	gb := "Standard_ND128isr_NDR_GB200_v6"
	res := mustRecommend(t, Request{Workload: "training", Model: &Model{ParametersBillion: 70}, Prefer: []string{gb}, Target: "vmss", AsOf: asOf, MaxResults: i64(3)})
	top := res.Recommendations[0]
	d := top.Deployment
	reasons := strings.Join(top.Reasons, " ")
	if top.VMSize != gb || top.Nodes%18 != 0 || d.SinglePlacementGroup || d.RDMAPlacement != deploy.PlacementScaleSet ||
		d.Interconnect == nil || d.Interconnect.HighSpeedInterconnectPlacement != "Trunk" || d.Interconnect.Racks != top.Nodes/18 ||
		!strings.Contains(reasons, "racks of 18") || !near(top.TotalPricePerHour, *top.PricePerHour*float64(top.Nodes)) || top.TotalGPUs != 4*float64(top.Nodes) {
		t.Errorf("%s on %d VMs: deployment %+v, interconnect %+v, reasons %q", top.VMSize, top.Nodes, d, d.Interconnect, top.Reasons)
	}
	one := mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 8}, Prefer: []string{gb}, Target: "vmss", AsOf: asOf}).Recommendations[0]
	if one.VMSize != gb || one.Nodes != 1 || one.Deployment.Interconnect != nil || strings.Contains(strings.Join(one.Reasons, " "), "racks of") {
		t.Errorf("one-VM job: %s on %d VMs, interconnect %+v", one.VMSize, one.Nodes, one.Deployment.Interconnect)
	}
	fixed := mustRecommend(t, Request{Workload: "training", Model: &Model{ParametersBillion: 70}, Prefer: []string{gb}, Nodes: i64(5), Target: "vmss", AsOf: asOf}).Recommendations[0]
	if fixed.Nodes != 5 || !strings.Contains(strings.Join(fixed.Warnings, " "), "leaves 13 VMs of the last rack unused") {
		t.Errorf("nodes = 5: %d VMs, warnings %q", fixed.Nodes, fixed.Warnings)
	}
}

// The confidential H100 (D57): a confidential VM with secure boot, vTPM and
// its guest state encrypted with the OS disk, on Canonical's CVM image.
func TestConfidentialDeployment(t *testing.T) {
	yes := true
	res := mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 8}, Confidential: &yes, AsOf: asOf})
	top := res.Recommendations[0]
	d := top.Deployment
	if top.VMSize != "Standard_NCC40ads_H100_v5" || d.SecurityType != "ConfidentialVM" || !d.VTPMEnabled || !d.SecureBootEnabled ||
		d.OSDiskSecurityEncryptionType != "DiskWithVMGuestState" || d.ImageURN != "Canonical:0001-com-ubuntu-confidential-vm-jammy:22_04-lts-cvm:22.04.202606120" {
		t.Errorf("%s: deployment %+v", top.VMSize, d)
	}
	// The fixture maps it to the Ubuntu-HPC image, which does not boot as
	// a confidential VM: no image, and a warning saying so.
	top = mustRecommendOn(t, fixture(t), Request{Workload: "inference", Model: &Model{ParametersBillion: 8}, Confidential: &yes, Target: "vmss", AsOf: asOf}).Recommendations[0]
	if d := top.Deployment; !top.SKU.Confidential || d.ImageURN != "" || d.SecurityType != "ConfidentialVM" ||
		!strings.Contains(strings.Join(top.Warnings, " "), "does not boot as a confidential VM") {
		t.Errorf("%s: deployment %+v, warnings %q", top.VMSize, d, top.Warnings)
	}
	// azurerm_batch_pool cannot make a confidential pool (D76): Batch
	// counts the confidential size under target.
	if got := rejectedBy(t, testCatalog(t), Request{Workload: "inference", Model: &Model{ParametersBillion: 8}, Confidential: &yes, Target: "batch", AsOf: asOf}, "Standard_NCC40ads_H100_v5"); got != "target" {
		t.Errorf("confidential on Batch counted under %q", got)
	}
	// On AKS: no driver from AKS, Ubuntu 24.04, no node auto-provisioning.
	// AKS documents the node pool (use-confidential-gpus.md): no warning
	// that its support is unknown.
	onAKS := mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 8}, Confidential: &yes, Target: "aks", AsOf: asOf})
	a := onAKS.Recommendations[0].Deployment.AKS
	if a == nil || a.GPUDriver != "None" || a.OSSKU != "Ubuntu2404" || a.NodeAutoProvisioning != nil || !strings.Contains(a.Note, "az-cgpu-onboarding") {
		t.Errorf("confidential AKS pool %+v", a)
	}
	if w := warningSummaries(onAKS.Warnings); slices.Contains(w, "Target Support Unknown") {
		t.Errorf("confidential on AKS warns %v", w)
	}
}

// Spot on the embedded catalog: every size with a spot price ranks before
// every size without one, and Fsv2's capacity restriction (since July 2026)
// is a warning on each of its sizes.
func TestSpotRankingAndCapacityRestriction(t *testing.T) {
	res := mustRecommend(t, Request{Workload: "htc", Cores: i64(64), Spot: true, Region: "eastus2", AsOf: asOf, MaxResults: i64(MaxResultsLimit)})
	fsv2 := 0
	for i, r := range res.Recommendations {
		if i > 0 && r.PriceIsSpot && !res.Recommendations[i-1].PriceIsSpot {
			t.Errorf("%s, priced at spot, after %s, priced on demand", r.VMSize, res.Recommendations[i-1].VMSize)
		}
		restricted := strings.Contains(strings.Join(r.Warnings, " "), "restricted capacity growth for the Fsv2 series since 2026-07-01")
		if (r.SKU.Series == "Fsv2") != restricted {
			t.Errorf("%s (%s): warnings %q", r.VMSize, r.SKU.Series, r.Warnings)
		}
		if r.SKU.Series == "Fsv2" {
			fsv2++
		}
	}
	if fsv2 == 0 {
		t.Errorf("no Fsv2 size ranked: %v", rankedNames(res))
	}
}

// A size without a Microsoft size page (D58) says so in its warnings; its
// sibling with a page does not.
func TestNoSizePageWarning(t *testing.T) {
	res := mustRecommend(t, Request{Workload: "inference", Model: &Model{ParametersBillion: 70}, Prefer: []string{"Standard_ND96is_H100_v5"}, AsOf: asOf, MaxResults: i64(MaxResultsLimit)})
	for _, r := range res.Recommendations {
		if warned := strings.Contains(strings.Join(r.Warnings, " "), "no size page"); warned != r.SKU.NoSizePage {
			t.Errorf("%s (no size page %v): warnings %q", r.VMSize, r.SKU.NoSizePage, r.Warnings)
		}
	}
	if top := res.Recommendations[0]; top.VMSize != "Standard_ND96is_H100_v5" || top.Deployment.RDMA {
		t.Errorf("top %s, RDMA %v", top.VMSize, top.Deployment.RDMA)
	}
}

// Spot where Azure sells none: the Resource SKUs API marks the NC A100 v4
// sizes not low-priority capable in eastus (D75). Asked for spot there on
// every target, each keeps its on-demand price and deploys on demand, and
// the warnings say why; a region that sells them deploys Spot.
func TestNoSpotSettingsWhereAzureSellsNone(t *testing.T) {
	for _, target := range []string{TargetVM, TargetAKS, TargetAzureML, TargetBatch} {
		req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, RequestsPerSecond: f64(1), Region: "eastus", Spot: true,
			GPUModels: []string{"a100-pcie-80gb"}, Target: target, AsOf: asOf}
		res := mustRecommend(t, req)
		for _, r := range res.Recommendations {
			d := r.Deployment
			if r.PriceIsSpot || d.Spot != nil || (d.AKS != nil && d.AKS.Spot != nil) || (d.AzureML != nil && d.AzureML.VMPriority != deploy.AzureMLDedicated) ||
				(d.Batch != nil && d.Batch.TargetLowPriorityNodes != 0) || !strings.HasPrefix(r.Warnings[0], "Azure sells no Spot VMs of this size in eastus") {
				t.Errorf("%s on %s: spot price %v, settings %+v, warnings %q", r.VMSize, target, r.PriceIsSpot, d, r.Warnings)
			}
		}
		if w := warningSummaries(res.Warnings); !slices.Contains(w, "No Spot VMs Of This Size") {
			t.Errorf("target %s: warnings %v", target, w)
		}
	}
	res := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, RequestsPerSecond: f64(1), Region: "eastus2", Spot: true,
		GPUModels: []string{"a100-pcie-80gb"}, Target: TargetAKS, AsOf: asOf})
	if r := res.Recommendations[0]; !r.PriceIsSpot || r.Deployment.AKS.Spot == nil {
		t.Errorf("%s in eastus2: spot price %v, AKS spot %+v", r.VMSize, r.PriceIsSpot, r.Deployment.AKS.Spot)
	}
}

// Spot in a region where the catalog prices no size at spot: one result
// warning says every price is on-demand, and no size claims to be listed
// after sizes with a spot price that are not there.
func TestSpotWhereNoSizeHasASpotPrice(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-70b"}, RequestsPerSecond: f64(2), Region: "westeurope", Spot: true, Target: TargetAKS, AsOf: asOf})
	for _, r := range res.Recommendations {
		if r.PriceIsSpot {
			t.Fatalf("%s has a spot price in westeurope: the premise is gone", r.VMSize)
		}
		for _, w := range r.Warnings {
			if strings.Contains(w, "listed after the sizes with a spot price") {
				t.Errorf("%s: %q", r.VMSize, w)
			}
		}
	}
	if w := warningSummaries(res.Warnings); !slices.Contains(w, "No Spot Prices") || slices.Contains(w, "No Spot Price") {
		t.Errorf("warnings %v", w)
	}
}

// With spot = true, a size named in prefer is first even without a spot
// price; the others keep spot-priced sizes before the rest.
func TestSpotPreferStillPins(t *testing.T) {
	req := Request{Workload: "inference", Model: &Model{ParametersBillion: 1.3}, Spot: true, Region: "eastus", Prefer: []string{"Standard_NC40ads_H100_v5"}, AsOf: asOf, MaxResults: i64(50)}
	res := mustRecommendOn(t, fixture(t), req)
	top := res.Recommendations[0]
	if top.VMSize != "Standard_NC40ads_H100_v5" || !top.Preferred || top.PriceIsSpot {
		t.Fatalf("top %s, preferred %v, spot %v", top.VMSize, top.Preferred, top.PriceIsSpot)
	}
	rest := res.Recommendations[1:]
	for i := 1; i < len(rest); i++ {
		if rest[i].PriceIsSpot && !rest[i-1].PriceIsSpot {
			t.Errorf("%s, priced at spot, after %s, priced on demand", rest[i].VMSize, rest[i-1].VMSize)
		}
	}
	if !rest[0].PriceIsSpot {
		t.Errorf("after the pinned size, %s is not priced at spot", rest[0].VMSize)
	}
}

// Spot training: the checkpoint advice is in the top recommendation's
// warnings, in state, besides the plan's diagnostic; a spot job across VMs
// over InfiniBand (an MPI job on 2,000 cores) says that one eviction stops
// it.
func TestSpotTrainingWarnings(t *testing.T) {
	train := Request{Workload: WorkloadTraining, Model: &Model{ParametersBillion: 70}, TokensBillion: f64(2000), DeadlineHours: f64(2000), Spot: true, AsOf: asOf}
	if top := mustRecommend(t, train).Recommendations[0]; !slices.Contains(top.Warnings, spotTrainingAdvice) {
		t.Errorf("top %s warnings %q lack the checkpoint advice", top.VMSize, top.Warnings)
	}
	res := mustRecommend(t, Request{Workload: WorkloadHPC, Cores: i64(2000), Spot: true, AsOf: asOf, MaxResults: i64(MaxResultsLimit)})
	spread := false
	for _, r := range res.Recommendations {
		says := slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "an eviction of any one of them stops the whole job") })
		multi := r.Deployment.Spot != nil && r.Nodes > 1 && r.Deployment.RDMA
		if multi != says {
			t.Errorf("%s on %d VMs (spot %v, RDMA %v): eviction warning %v", r.VMSize, r.Nodes, r.PriceIsSpot, r.Deployment.RDMA, says)
		}
		spread = spread || multi
	}
	if !spread {
		t.Errorf("no spot layout across VMs over InfiniBand: %v", names(res))
	}
}

// The eviction warning follows the deployment, not the price: in
// westeurope the catalog has no spot price for the HB sizes, yet 1,024
// MPI cores with spot deploy 6 Spot VMs of HB176rs v4 over InfiniBand, and
// lacked the warning that one eviction stops the whole job. CycleCloud's
// hpc partition, which runs on demand, gets none.
func TestSpotEvictionWarningFollowsTheDeployment(t *testing.T) {
	t.Parallel()
	evicts := func(r Recommendation) bool {
		return slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "an eviction of any one of them stops the whole job") })
	}
	req := Request{Workload: WorkloadHPC, Cores: i64(1024), Region: "westeurope", Spot: true, AsOf: asOf}
	res := mustRecommend(t, req)
	if top := res.Recommendations[0]; top.PriceIsSpot || top.Deployment.Spot == nil || top.Nodes < 2 || !top.Deployment.RDMA {
		t.Fatalf("the premise is gone: %s × %d, spot price %v, Spot settings %v", top.VMSize, top.Nodes, top.PriceIsSpot, top.Deployment.Spot != nil)
	}
	for _, r := range res.Recommendations {
		if r.Deployment.Spot != nil && r.Nodes > 1 && r.Deployment.RDMA && !evicts(r) {
			t.Errorf("%s × %d deployed on Spot over InfiniBand without the eviction warning: %q", r.VMSize, r.Nodes, r.Warnings)
		}
	}
	req.Target = TargetCycleCloud
	for _, r := range mustRecommend(t, req).Recommendations {
		if evicts(r) || r.Deployment.CycleCloud.Interruptible {
			t.Errorf("cyclecloud hpc partition, on demand: %s warns of eviction %v, interruptible %v", r.VMSize, evicts(r), r.Deployment.CycleCloud.Interruptible)
		}
	}
}

// The F v7 sizes name the Batch-verified, NVMe-capable Ubuntu Server 24.04
// image (D72): an htc job on them gets an image reference for its scale
// set and its Batch pool, with the Ubuntu 24.04 node agent.
func TestDeploymentFv7Image(t *testing.T) {
	want := &deploy.ImageReference{Publisher: "Canonical", Offer: "ubuntu-24_04-lts", SKU: "server", Version: "latest"}
	for _, target := range []string{TargetVMSS, TargetBatch} {
		res := mustRecommend(t, Request{Workload: WorkloadHTC, Cores: i64(10000), Region: "eastus", Target: target, Prefer: []string{"Standard_F80alds_v7"}, AsOf: asOf})
		top := res.Recommendations[0]
		if top.VMSize != "Standard_F80alds_v7" || top.Deployment.ImageURN != "Canonical:ubuntu-24_04-lts:server:latest" {
			t.Errorf("%s: %s with image %q", target, top.VMSize, top.Deployment.ImageURN)
		}
		if b := top.Deployment.Batch; target == TargetBatch && (b == nil || !reflect.DeepEqual(b.Image, want) || b.NodeAgentSKUID != "batch.node.ubuntu 24.04") {
			t.Errorf("Batch %+v", b)
		}
	}
}

// Spot on CycleCloud's hpc partition, which runs on demand: each size
// says why its price is on-demand, not that no spot price is known (the
// same sizes have one on target vm).
func TestCycleCloudHPCSpotSaysThePartitionRunsOnDemand(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadHPC, Cores: i64(2048), Region: "eastus", Target: TargetCycleCloud, Spot: true, AsOf: asOf})
	for _, r := range res.Recommendations {
		w := strings.Join(r.Warnings, " ")
		if strings.Contains(w, "No spot price is known") || !strings.Contains(w, "partition on demand") {
			t.Errorf("%s: %q", r.VMSize, r.Warnings)
		}
	}
}

// On Batch a job whose VMs talk to each other runs in one pool with
// inter-node communication, which holds at most 100 nodes: 70B training
// by 300 hours, which takes 216 GB200 VMs in a scale set, does not rank
// there, and the nearest miss names the deadline its 90 VMs (five racks)
// meet.
func TestBatchPoolHoldsTheJob(t *testing.T) {
	req := Request{Workload: WorkloadTraining, Model: &Model{Name: "llama-3.1-70b"}, TokensBillion: f64(2000), DeadlineHours: f64(300), Region: "eastus", Target: TargetVMSS, AsOf: asOf}
	if r := mustRecommend(t, req).Recommendations[0]; r.Nodes <= deploy.BatchMPINodesBatchService {
		t.Fatalf("the premise is gone: %s on %d VMs on target vmss", r.VMSize, r.Nodes)
	}
	req.Target = TargetBatch
	nf := mustNoFit(t, req)
	if m := nf.NearestMiss; m == nil || !strings.Contains(m.Relax, "on 90 VMs of it") {
		t.Errorf("nearest miss %+v", m)
	}
}

// batchPoolNodes is the most nodes of a Batch pool with inter-node
// communication: a user-subscription account's with spot (Batch runs Spot
// VMs only in such accounts), else a Batch-service account's.
func batchPoolNodes(spot bool) int64 {
	if spot {
		return deploy.BatchMPINodesUserSubscription
	}
	return deploy.BatchMPINodesBatchService
}

// With spot, a Batch pool is a user-subscription account's, whose pools
// with inter-node communication hold at most 80 nodes: 10,800 MPI cores,
// which take 90 HB120rs v3 VMs in a Batch-service account's pool, rank no
// layout above 80 VMs, and the HB120rs v3 not at all.
func TestBatchSpotPoolHoldsAUserSubscriptionPool(t *testing.T) {
	t.Parallel()
	req := Request{Workload: WorkloadHPC, Cores: i64(10800), Target: TargetBatch, Region: "eastus", AsOf: asOf, MaxResults: i64(50)}
	if !slices.ContainsFunc(mustRecommend(t, req).Recommendations, func(r Recommendation) bool {
		return r.Nodes > deploy.BatchMPINodesUserSubscription && r.Deployment.Batch.InterNodeCommunication == deploy.BatchInterNodeEnabled
	}) {
		t.Fatal("the premise is gone: on demand, no MPI pool above 80 nodes ranks")
	}
	req.Spot = true
	for _, r := range mustRecommend(t, req).Recommendations {
		b := r.Deployment.Batch
		if (b.InterNodeCommunication == deploy.BatchInterNodeEnabled && r.Nodes > deploy.BatchMPINodesUserSubscription) || r.VMSize == "Standard_HB120rs_v3" {
			t.Errorf("spot: %s on %d VMs, inter-node communication %s", r.VMSize, r.Nodes, b.InterNodeCommunication)
		}
	}
}

// SGLang stops on a GPU below compute capability 7.5 ("SGLang only
// supports sm75 and above."): Llama 3.1 8B on V100 sizes (7.0) gets vLLM's
// arguments alone, and a note that says to serve it with vLLM.
func TestSGLangArgsNotOnVolta(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b"}, RequestsPerSecond: f64(1), GPUModels: []string{"v100-sxm2-32gb"}, AsOf: asOf})
	for _, r := range res.Recommendations {
		s := r.Deployment.Serving
		if s == nil || s.VLLMArgs == nil || s.SGLangArgs != nil || !strings.Contains(s.Note, "serve the model with vLLM") || !strings.Contains(s.Note, "7.5") {
			t.Errorf("%s: serving %+v; want vLLM arguments, no SGLang arguments and a note naming 7.5 and vLLM", r.VMSize, s)
		}
	}
}

// vLLM runs no AWQ checkpoint on Volta (its quantization hardware table):
// int4 on V100 sizes names a GPTQ checkpoint, not "AWQ or GPTQ".
func TestInt4CheckpointOnVoltaIsGPTQ(t *testing.T) {
	res := mustRecommend(t, Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b", Precision: "int4"}, RequestsPerSecond: f64(1), GPUModels: []string{"v100-sxm2-32gb"}, AsOf: asOf})
	for _, r := range res.Recommendations {
		s := r.Deployment.Serving
		if s == nil {
			t.Errorf("%s: no serving settings; want a note naming a GPTQ checkpoint alone", r.VMSize)
			continue
		}
		if !strings.Contains(s.Note, "checkpoint quantized to int4 (GPTQ") || strings.Contains(s.Note, "AWQ or GPTQ") {
			t.Errorf("%s: note %q; want a GPTQ checkpoint alone", r.VMSize, s.Note)
		}
	}
}

// int8 serving follows one window, vLLM's INT8 W8A8 (perfmodel.INT8W8A8:
// compute capability 7.5 up to, not including, 10.0): every NVIDIA size
// that serves Llama 3.1 8B in int8 has vLLM's arguments exactly inside
// it, is timed W8A8 (no weight-only sentence) only inside it, and none is
// below it. Both sides are found in the catalog: the A100 and H100 inside,
// the Blackwell sizes above.
func TestInt8ServingFollowsOneW8A8Window(t *testing.T) {
	req := Request{Workload: WorkloadInference, Model: &Model{Name: "llama-3.1-8b", Precision: "int8"}, RequestsPerSecond: f64(1), AsOf: asOf}
	served, _ := passing(t, testEngine(t), req)
	seen := map[bool]int{}
	for _, r := range served {
		if r.SKU.GPU == nil || r.SKU.GPU.Vendor != "nvidia" {
			continue
		}
		h := perfmodel.HardwareOf(r.SKU)
		inside := perfmodel.INT8W8A8(h.CC)
		seen[inside]++
		s := r.Deployment.Serving
		if s == nil {
			t.Errorf("%s: no serving settings", r.VMSize)
			continue
		}
		weightOnly := strings.Contains(strings.Join(r.Estimate.Assumptions, " "), "Weight-only:")
		if (s.VLLMArgs != nil) != inside || h.CC < perfmodel.INT8W8A8MinCC || (inside && h.TFLOPS[6] > 0 && weightOnly) || (!inside && !weightOnly) {
			t.Errorf("%s (compute capability %d): vLLM arguments %v, weight-only %v, note %q; want vLLM and W8A8 exactly within INT8 W8A8", r.VMSize, h.CC, s.VLLMArgs != nil, weightOnly, s.Note)
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("sizes inside and outside the window: %v; want both", seen)
	}
}

// Qwen3's config.json allows 40,960 positions (rope_scaling null), and the
// engines refuse a longer --max-model-len or --context-length unless YaRN is
// turned on: Qwen3 8B served at 65,536 tokens gets vLLM's --hf-overrides
// with the card's YaRN (factor 4.0 over 32,768 positions) beside
// --max-model-len=65536, and no SGLang arguments, which SGLang refuses
// without SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1: the note names the
// setting and gives SGLang's arguments with the override, and says YaRN is
// applied only because the context needs it.
func TestQwen3ContextAboveTheConfigTurnsOnYaRN(t *testing.T) {
	t.Parallel()
	req := Request{
		Workload: WorkloadInference, Model: &Model{Name: "qwen3-8b"}, ContextTokens: i64(65536), PromptTokens: i64(30000), OutputTokens: i64(2000),
		RequestsPerSecond: f64(0.5), GPUModels: []string{"h100-nvl-94gb"}, AsOf: asOf,
	}
	res := mustRecommend(t, req)
	if len(res.Recommendations) == 0 {
		t.Fatal("no recommendation")
	}
	const vllmYaRN = `--hf-overrides={"rope_parameters":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768,"rope_theta":1000000}}`
	const sglangYaRN = `--json-model-override-args={"rope_scaling":{"rope_type":"yarn","factor":4.0,"original_max_position_embeddings":32768,"rope_theta":1000000}}`
	for _, r := range res.Recommendations {
		s := r.Deployment.Serving
		if s == nil || !slices.Contains(s.VLLMArgs, vllmYaRN) || !slices.Contains(s.VLLMArgs, "--max-model-len=65536") || s.SGLangArgs != nil ||
			!strings.Contains(s.Note, "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1") || !strings.Contains(s.Note, sglangYaRN) ||
			!strings.Contains(s.Note, "--context-length=65536") || !strings.Contains(s.Note, "only because the context needs it") || !strings.Contains(s.Note, "40,960") {
			t.Errorf("%s: serving %+v; want vLLM's YaRN override, no SGLang arguments and a note with SGLang's setting", r.VMSize, s)
		}
	}
}

// Within the config's 40,960 tokens the arguments are the config's: no
// override, SGLang's arguments, no YaRN note.
func TestQwen3ContextWithinTheConfigTakesNoYaRN(t *testing.T) {
	t.Parallel()
	req := Request{
		Workload: WorkloadInference, Model: &Model{Name: "qwen3-8b"}, ContextTokens: i64(40960), PromptTokens: i64(30000), OutputTokens: i64(2000),
		RequestsPerSecond: f64(0.5), GPUModels: []string{"h100-nvl-94gb"}, AsOf: asOf,
	}
	for _, r := range mustRecommend(t, req).Recommendations {
		s := r.Deployment.Serving
		if s == nil || !slices.Contains(s.VLLMArgs, "--max-model-len=40960") || !slices.Contains(s.SGLangArgs, "--context-length=40960") ||
			strings.Contains(strings.Join(append(s.VLLMArgs, s.SGLangArgs...), " "), "yarn") || strings.Contains(s.Note, "YaRN") {
			t.Errorf("%s: serving %+v; want the config's arguments and no YaRN", r.VMSize, s)
		}
	}
}

// Azure refuses Spot VMs in an availability set
// (AzureSpotVMNotSupportedInAvailabilitySet, "Error messages for Azure Spot
// Virtual Machines and scale sets"): 1,024 MPI cores on Spot VMs with
// target vm (the default) put HB176rs v4 × 6 in westeurope, HB120rs v3 × 9
// in eastus, in an availability set with the Spot settings; they go in a
// scale set with a single placement group, which the note says to deploy,
// and their span is the scale set's (300 on HBv4), not the availability
// set's 200, which on-demand VMs keep.
func TestSpotInfiniBandVMsGoInAScaleSet(t *testing.T) {
	t.Parallel()
	for _, region := range []string{"westeurope", "eastus"} {
		req := Request{Workload: WorkloadHPC, Cores: i64(1024), Region: region, Spot: true, AsOf: asOf}
		for _, r := range mustRecommend(t, req).Recommendations {
			d := r.Deployment
			if !d.RDMA || r.Nodes < 2 {
				t.Fatalf("%s: the premise is gone: %s on %d VMs, RDMA %v", region, r.VMSize, r.Nodes, d.RDMA)
			}
			if d.RDMAPlacement != deploy.PlacementScaleSet || !d.SinglePlacementGroup || !strings.Contains(d.Note, "AzureSpotVMNotSupportedInAvailabilitySet") {
				t.Errorf("%s: %s × %d on Spot (%v): placement %q, single placement group %v, note %q", region, r.VMSize, r.Nodes, d.Spot != nil, d.RDMAPlacement, d.SinglePlacementGroup, d.Note)
			}
		}
		req.Spot = false
		for _, r := range mustRecommend(t, req).Recommendations {
			if d := r.Deployment; d.RDMAPlacement != deploy.PlacementAvailabilitySet || strings.Contains(d.Note, "AzureSpotVMNotSupportedInAvailabilitySet") {
				t.Errorf("%s on demand: %s placement %q, note %q", region, r.VMSize, d.RDMAPlacement, d.Note)
			}
		}
	}
	// 250 VMs of HB176rs v4: beyond an availability set, within the
	// scale set's span.
	req := Request{Workload: WorkloadHPC, Nodes: i64(250), Region: "eastus", Prefer: []string{"Standard_HB176rs_v4"}, AsOf: asOf}
	if nf := mustNoFit(t, req); rejectedCounts(nf.Rejected)["nodes"] == 0 {
		t.Errorf("on demand, 250 VMs in an availability set: rejected %+v, want nodes among them", nf.Rejected)
	}
	req.Spot = true
	top := mustRecommend(t, req).Recommendations[0]
	if top.VMSize != "Standard_HB176rs_v4" || top.Nodes != 250 || top.Deployment.RDMAPlacement != deploy.PlacementScaleSet {
		t.Errorf("spot: %s × %d, placement %q; want Standard_HB176rs_v4 × 250 in a scale set", top.VMSize, top.Nodes, top.Deployment.RDMAPlacement)
	}
}

// Batch runs one task on a node unless the pool says otherwise
// (taskSlotsPerNode defaults to 1): 50,000 htc cores on Spot took 417
// HB120rs v3 nodes for 120 one-core tasks each, with no task slots, so the
// pool ran 417 tasks at once. The pool's max_tasks_per_node is now the
// tasks each node runs in the layout, at most Batch's limit (the smaller
// of 4 × vCPUs and 256, with a note where the layout wants more); an MPI
// pool keeps 1.
func TestBatchHTCPoolRunsTheLayoutsTasks(t *testing.T) {
	t.Parallel()
	req := Request{Workload: WorkloadHTC, Cores: i64(50000), Region: "eastus", Spot: true, Target: TargetBatch, AsOf: asOf}
	res := mustRecommend(t, req)
	if top := res.Recommendations[0]; top.VMSize != "Standard_HB120rs_v3" || top.Nodes != 417 || top.Deployment.Batch.MaxTasksPerNode != 120 {
		t.Errorf("top %s × %d, max_tasks_per_node %d; want Standard_HB120rs_v3 × 417 running 120 tasks a node", top.VMSize, top.Nodes, top.Deployment.Batch.MaxTasksPerNode)
	}
	for _, r := range res.Recommendations {
		b, v := r.Deployment.Batch, *r.SKU.VCPUs
		if b.InterNodeCommunication != deploy.BatchInterNodeDisabled || b.MaxTasksPerNode*r.Nodes < 50000 || b.MaxTasksPerNode > min(4*v, 256) || b.MaxTasksPerNode > v {
			t.Errorf("%s × %d (%d vCPUs): max_tasks_per_node %d, inter-node communication %s", r.VMSize, r.Nodes, v, b.MaxTasksPerNode, b.InterNodeCommunication)
		}
	}
	// A 368-vCPU node runs at most 256 tasks: the note says how to keep
	// the rest of its vCPUs busy.
	whole := Request{Workload: WorkloadHTC, Nodes: i64(2), Region: "eastus", Target: TargetBatch, Prefer: []string{"Standard_HB368rs_v5"}, AsOf: asOf}
	if top := mustRecommend(t, whole).Recommendations[0]; top.VMSize != "Standard_HB368rs_v5" || top.Deployment.Batch.MaxTasksPerNode != 256 || !strings.Contains(top.Deployment.Batch.Note, "at most 256 tasks at once on a node") {
		t.Errorf("%s: max_tasks_per_node %d, note %q", top.VMSize, top.Deployment.Batch.MaxTasksPerNode, top.Deployment.Batch.Note)
	}
	mpi := Request{Workload: WorkloadHPC, Cores: i64(1536), Region: "eastus", Target: TargetBatch, AsOf: asOf}
	for _, r := range mustRecommend(t, mpi).Recommendations {
		if b := r.Deployment.Batch; b.MaxTasksPerNode != 1 {
			t.Errorf("MPI pool %s × %d: max_tasks_per_node %d, want 1", r.VMSize, r.Nodes, b.MaxTasksPerNode)
		}
	}
}
