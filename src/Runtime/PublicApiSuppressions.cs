using System.Diagnostics.CodeAnalysis;

// WaitableCondition.WaitAsync mirrors Wait: with and without a timeout, each with an optional token, as
// SemaphoreSlim.WaitAsync is. RS0026 guards against adding such overloads later; these two shipped together.
[assembly: SuppressMessage("ApiDesign", "RS0026:Do not add multiple public overloads with optional parameters", Justification = "Designed together, as SemaphoreSlim.WaitAsync.", Scope = "member", Target = "~M:CoarseTimers.WaitableCondition.WaitAsync(System.Func{System.Boolean},System.Threading.CancellationToken)~System.Threading.Tasks.ValueTask")]
[assembly: SuppressMessage("ApiDesign", "RS0026:Do not add multiple public overloads with optional parameters", Justification = "Designed together, as SemaphoreSlim.WaitAsync.", Scope = "member", Target = "~M:CoarseTimers.WaitableCondition.WaitAsync(System.Func{System.Boolean},System.TimeSpan,System.Threading.CancellationToken)~System.Threading.Tasks.ValueTask{System.Boolean}")]
