using System;

namespace SampleService;

/// <summary>
/// The team's own marker for code that runs per request. The CoarseTimers analyzers recognise any attribute named
/// HotPath, so the service needs no dependency to declare its hot paths.
/// </summary>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Method)]
internal sealed class HotPathAttribute : Attribute
{
}
